// The production set-up of docs/deploy.md, tested: the real nginx (Debian's package) in front of
// the built service on loopback, running the repository's own deploy/nginx/pagegrade.conf with
// only its host name, certificate paths, listen addresses and upstream replaced — TLS with a
// throwaway certificate made here by openssl, HTTP/2, X-Forwarded-For/-Proto believed from the
// proxy's address alone (PAGEGRADE_TRUST_PROXY), body limits at the proxy and at the service, the
// live events unbuffered, /metrics kept off the public side, and the public https URL in what the
// service writes.
//
// Loopback has many addresses: the proxy connects to the service from 127.0.0.9 (proxy_bind) and
// each client from an address of its own (127.0.0.5, .6, .7), so "the real client's address" and
// "the proxy's" can be told apart on one machine.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';
import { ROOT, api, freePort, startService, type ServiceProcess } from '../helpers/service-process.js';
import { randomId } from '../helpers/services.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p)) ?? null;
const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((p) => existsSync(p)) ?? null;
/** .ci/run sets it: there, a missing nginx is a failure, not a skip */
const REQUIRE_NGINX = process.env.PAGEGRADE_REQUIRE_NGINX === '1';
const missing =
  NGINX === null
    ? 'nginx is not installed (apt-get install -y nginx)'
    : OPENSSL === null
      ? 'openssl is not installed (apt-get install -y openssl)'
      : null;

const KEY = `pg_${randomId()}${randomId()}${randomId()}`;
const PROXY_ADDRESS = '127.0.0.9';

interface H2Answer {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: string;
  alpn: string | false | undefined;
}

describe(
  'behind nginx (docs/deploy.md)',
  { skip: missing !== null && !REQUIRE_NGINX ? missing : false },
  () => {
    let dir = '';
    let nginx: ChildProcess | null = null;
    let nginxLog = '';
    let service: ServiceProcess | null = null;
    let site: FixtureSite | null = null;
    let httpsPort = 0;
    let httpPort = 0;
    let cert = '';
    let publicUrl = '';
    let siteOrigin = '';

    /** One HTTP/2 request to the proxy over TLS, from a loopback address of the test's choosing. */
    function h2(
      path: string,
      o: { method?: string; headers?: Record<string, string>; body?: string | Buffer; from?: string } = {},
    ): Promise<H2Answer> {
      return new Promise((resolve, reject) => {
        const session = http2.connect(`https://localhost:${httpsPort}`, {
          createConnection: () =>
            tls.connect({
              // the client's own loopback address: a TCP socket bound to it, then TLS over it
              socket: netConnect({ host: '127.0.0.1', port: httpsPort, localAddress: o.from ?? '127.0.0.5' }),
              servername: 'localhost',
              ca: cert,
              ALPNProtocols: ['h2'],
            }),
        });
        session.on('error', reject);
        const req = session.request({
          ':method': o.method ?? 'GET',
          ':path': path,
          authorization: `Bearer ${KEY}`,
          ...o.headers,
        });
        let body = '';
        let headers: http2.IncomingHttpHeaders = {};
        req.setEncoding('utf8');
        req.on('response', (h) => (headers = h));
        req.on('data', (d: string) => (body += d));
        req.on('end', () => {
          const alpn = session.alpnProtocol;
          session.close();
          resolve({ status: Number(headers[':status']), headers, body, alpn });
        });
        req.on('error', (e) => {
          session.close();
          reject(e);
        });
        if (o.body !== undefined) req.end(o.body);
        else req.end();
      });
    }

    const json = (body: unknown) => ({
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'pagegrade-nginx-'));
      execFileSync(OPENSSL!, [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1',
      '-keyout', join(dir, 'privkey.pem'), '-out', join(dir, 'fullchain.pem'),
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ], { stdio: 'ignore' }); // prettier-ignore
      cert = readFileSync(join(dir, 'fullchain.pem'), 'utf8');
      [httpsPort, httpPort] = [await freePort(), await freePort()];
      publicUrl = `https://localhost:${httpsPort}`;
      // a site slow enough that a crawl of it is still running when its first pages are audited
      site = await startFixtureSite({ pages: 6, crawlDelay: null, plain: true, latencyMs: 400 });
      // the service is a process of its own: it reaches the site by address (site.test is the
      // test process's own name for it)
      siteOrigin = `http://127.0.0.1:${site.fixture.port}`;
      service = await startService({
        DATABASE_URL: `sqlite:${join(dir, 'pagegrade.db')}`,
        PAGEGRADE_BOOTSTRAP_KEY: KEY,
        PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
        PAGEGRADE_TRUST_PROXY: PROXY_ADDRESS,
        PAGEGRADE_PUBLIC_URL: publicUrl,
        PAGEGRADE_RATE_LIMIT: '30',
        PAGEGRADE_METRICS: '1',
        PAGEGRADE_CRAWL_DELAY_MS: '0',
        PAGEGRADE_CRAWL_CONCURRENCY: '1',
      });

      // the repository's server blocks, with this machine's names and addresses
      const conf = readFileSync(join(ROOT, 'deploy/nginx/pagegrade.conf'), 'utf8')
        .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${service.port};`)
        .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
        .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
        .replaceAll('/etc/ssl/pagegrade/', `${dir}/`)
        .replaceAll('pagegrade.example.com', 'localhost');
      assert.ok(conf.includes(`127.0.0.1:${service.port}`) && conf.includes(`${dir}/privkey.pem`));
      writeFileSync(join(dir, 'pagegrade.conf'), conf);
      for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, t));
      const root = process.getuid?.() === 0;
      writeFileSync(
        join(dir, 'nginx.conf'),
        `${root ? 'user root root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # the proxy's own address towards the service (the one PAGEGRADE_TRUST_PROXY names)
  proxy_bind ${PROXY_ADDRESS};
  include ${dir}/pagegrade.conf;
}
`,
      );
      const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'];
      execFileSync(NGINX!, ['-t', ...args.slice(0, 4)], { stdio: 'pipe' });
      nginx = spawn(NGINX!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      nginx.stderr!.on('data', (d: Buffer) => (nginxLog += d.toString()));
      const deadline = Date.now() + 15_000;
      for (;;) {
        const up = await new Promise<boolean>((resolve) => {
          const s = netConnect(httpsPort, '127.0.0.1', () => resolve(s.end() !== null));
          s.on('error', () => resolve(false));
        });
        if (up) break;
        if (Date.now() > deadline || nginx.exitCode !== null)
          throw new Error(`nginx did not start: ${nginxLog}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });

    after(async () => {
      nginx?.kill('SIGQUIT');
      await service?.stop(5000);
      await site?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('HTTP/2 over TLS reaches the API; what the service writes names the public https URL', async () => {
      const list = await h2('/api/v1/reports');
      assert.equal(list.alpn, 'h2');
      assert.equal(list.status, 200, list.body);

      const made = await h2('/api/v1/reports', { method: 'POST', ...json({ url: `${siteOrigin}/p/1` }) });
      assert.equal(made.status, 201, made.body);
      const report = (
        JSON.parse(made.body) as { data: { id: number; links: { self: string; page: string } } }
      ).data;
      assert.equal(report.links.page, `${publicUrl}/reports/${report.id}`);
      assert.ok(report.links.self.startsWith(`${publicUrl}/api/v1/reports/`), report.links.self);
      assert.ok(!made.body.includes(`127.0.0.1:${service!.port}`), "the service's own address never shows");

      // a redirect the service writes stays on the public side
      const dash = await h2('/dashboard', { headers: { authorization: '' } });
      assert.ok([302, 303].includes(dash.status), String(dash.status));
      const location = String(dash.headers.location);
      assert.ok(location.startsWith('/') || location.startsWith(publicUrl), location);
      // plain HTTP only says where the service is
      const plain = await fetch(`http://127.0.0.1:${httpPort}/dashboard`, { redirect: 'manual' });
      assert.equal(plain.status, 301);
      assert.equal(plain.headers.get('location'), 'https://localhost/dashboard');
    });

    test("the client's own address, not the proxy's, in the audit log and the rate limit", async () => {
      // a client that claims another address in X-Forwarded-For is not believed: the proxy appends
      // the address it saw, and only the proxy (127.0.0.9) is trusted to have said so
      const project = '127.0.0.1';
      const put = await h2(`/api/v1/projects/${project}`, {
        method: 'PUT',
        from: '127.0.0.5',
        ...json({ start_url: `${siteOrigin}/`, max_pages: 6 }),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      });
      assert.ok([200, 201].includes(put.status), put.body);
      const log = await api(service!.origin, KEY, 'GET', '/api/v1/organization/audit-log');
      assert.equal(log.status, 200);
      const entry = (log.body.data as { action: string; ip: string | null }[]).find((e) =>
        e.action.startsWith('project.'),
      );
      assert.ok(entry, JSON.stringify(log.body.data));
      assert.equal(entry.ip, '127.0.0.5');

      // the sign-in throttle counts wrong attempts per client address (10 a minute): one client's
      // 429 is not another's — behind a proxy that was not believed, every client would share it
      const form = await h2('/login', { headers: { authorization: '' }, from: '127.0.0.6' });
      const cookie = [form.headers['set-cookie'] ?? []]
        .flat()
        .map((c) => c.split(';')[0])
        .join('; ');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
      assert.ok(cookie && csrf, 'the sign-in form gives a CSRF cookie and token');
      const wrong = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: '', cookie },
        body: `_csrf=${encodeURIComponent(csrf)}&key=pg_wrong`,
      };
      let limited = 0;
      for (let i = 0; i < 12 && limited === 0; i++) {
        const r = await h2('/login', { ...wrong, from: '127.0.0.6' });
        if (r.status === 429) limited = i + 1;
        else assert.equal(r.status, 401, r.body.slice(0, 300));
      }
      assert.equal(limited, 11, 'the 11th wrong sign-in from one address is refused');
      const other = await h2('/login', { ...wrong, from: '127.0.0.7' });
      assert.equal(other.status, 401, 'another client is not limited by the first one’s attempts');
    });

    test('a body over 1 MB: refused by the proxy and by the service, both in JSON', async () => {
      const big = JSON.stringify({ url: `${siteOrigin}/`, pad: 'x'.repeat(1_500_000) });
      const atProxy = await h2('/api/v1/reports', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: big,
      });
      assert.equal(atProxy.status, 413);
      assert.match(String(atProxy.headers['content-type']), /application\/json/);
      assert.match(
        (JSON.parse(atProxy.body) as { message: string }).message,
        /larger than this server accepts \(1 MB\)/,
      );

      // the same body sent to the host itself (a client on the private network)
      const atService = await fetch(`${service!.origin}/api/v1/reports`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: big,
      });
      assert.equal(atService.status, 413);
      assert.match(atService.headers.get('content-type') ?? '', /application\/json/);
      assert.match(((await atService.json()) as { message: string }).message, /\S/);
    });

    test("a batch's live events arrive through the proxy while it runs", async () => {
      const made = await h2('/api/v1/batches', {
        method: 'POST',
        ...json({ url: `${siteOrigin}/`, mode: 'crawl', max_pages: 6 }),
      });
      assert.equal(made.status, 202, made.body);
      const id = (JSON.parse(made.body) as { data: { id: number } }).data.id;

      const session = http2.connect(`https://localhost:${httpsPort}`, {
        createConnection: () =>
          tls.connect({
            host: '127.0.0.1',
            port: httpsPort,
            servername: 'localhost',
            ca: cert,
            ALPNProtocols: ['h2'],
          }),
      });
      const seenWhileRunning: { audited: number; statusThen: string }[] = [];
      let ended = false;
      let lastEvent: unknown = null;
      await new Promise<void>((resolve, reject) => {
        const req = session.request({
          ':path': `/api/v1/batches/${id}/events`,
          authorization: `Bearer ${KEY}`,
        });
        req.setEncoding('utf8');
        let buf = '';
        const checks: Promise<void>[] = [];
        req.on('data', (d: string) => {
          buf += d;
          let i: number;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (!/^event: progress$/m.test(block) || !data) continue;
            lastEvent = JSON.parse(data);
            const b = JSON.parse(data) as { status: string; progress: { audited: number } };
            if (b.status === 'running' && b.progress.audited > 0 && seenWhileRunning.length === 0) {
              // asked of the service itself, not through the proxy, the moment the event arrives
              checks.push(
                api(service!.origin, KEY, 'GET', `/api/v1/batches/${id}`).then((now) => {
                  seenWhileRunning.push({ audited: b.progress.audited, statusThen: now.body.data.status });
                }),
              );
            }
            if (['done', 'failed', 'cancelled'].includes(b.status)) ended = true;
          }
        });
        req.on('end', () => void Promise.all(checks).then(() => resolve(), reject));
        req.on('error', reject);
      });
      session.close();
      assert.ok(ended, `the stream ends with the batch (${JSON.stringify(lastEvent)})`);
      assert.equal(seenWhileRunning.length, 1, 'an event with audited pages came before the end');
      assert.equal(seenWhileRunning[0]!.statusThen, 'running', 'it came while the batch was still running');
    });

    test('/metrics answers on the host’s own port, never through the proxy', async () => {
      const direct = await fetch(`${service!.origin}/metrics`);
      assert.equal(direct.status, 200);
      assert.match(await direct.text(), /pagegrade_/);
      const proxied = await h2('/metrics');
      assert.equal(proxied.status, 404);
    });
  },
);
