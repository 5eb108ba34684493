// The browser guard in real headless Chromium: a fixture page whose scripts, images, iframes,
// fetch/XHR, WebSocket, preconnect/prefetch and redirects target loopback on other ports,
// 10.0.0.1, 169.254.169.254, [::1] and a name resolving to loopback (localhost). The page's own
// host is allowed by the narrow test allowance (its exact host:port, PAGEGRADE_ALLOW_HOSTS);
// the guard is otherwise on. Listeners on the loopback targets must receive no connection at
// all, the sink proxy (anything escaping interception) none either, and every refused target
// is named in the render's refused list.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { fetchPage } from '../../src/analyzer/fetch/index.js';
import { Renderer, chromiumProcesses } from '../../src/render/browser.js';
import { CHROMIUM, chromiumSkip } from '../helpers/chromium.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

interface Listener {
  server: Server;
  port: number;
  connections: number;
}

async function listen(host: string): Promise<Listener> {
  const l: Listener = { server: createServer(), port: 0, connections: 0 };
  l.server.on('connection', (s) => {
    l.connections++;
    s.destroy();
  });
  await new Promise<void>((resolve) => l.server.listen(0, host, resolve));
  l.port = (l.server.address() as { port: number }).port;
  return l;
}

test('browser guard: only the page host is reached', { skip: chromiumSkip }, async (t) => {
  let site: FixtureServer;
  let v4: Listener;
  let v6: Listener;
  let named: Listener;
  let renderer: Renderer;

  before(async () => {
    v4 = await listen('127.0.0.1');
    v6 = await listen('::1');
    named = await listen('127.0.0.1');
    const targets = [
      `http://127.0.0.1:${v4.port}`,
      `http://[::1]:${v6.port}`,
      `http://localhost:${named.port}`,
      'http://10.0.0.1',
      'http://169.254.169.254',
    ];
    const page = `<!doctype html><html lang="en"><head><title>Guard fixture</title>
${targets.map((o) => `<link rel="preconnect" href="${o}"><link rel="prefetch" href="${o}/prefetch.js"><link rel="stylesheet" href="${o}/style.css">`).join('\n')}
${targets.map((o) => `<script src="${o}/script.js"></script>`).join('\n')}
</head><body><h1>Guard fixture</h1>
${targets.map((o) => `<img src="${o}/img.png" alt="x"><iframe src="${o}/frame.html"></iframe>`).join('\n')}
<img src="/redirect-img" alt="r"><iframe src="/redirect-frame"></iframe>
<script src="/own.js"></script>
<script>
const targets = ${JSON.stringify(targets)};
for (const o of targets) {
  fetch(o + '/fetch').catch(() => {});
  const x = new XMLHttpRequest(); x.open('GET', o + '/xhr'); x.onerror = () => {}; x.send();
  try { const ws = new WebSocket(o.replace('http', 'ws') + '/ws'); ws.onerror = () => {}; } catch {}
  navigator.sendBeacon && navigator.sendBeacon(o + '/beacon', 'x');
}
fetch('/redirect-fetch').catch(() => {});
try { navigator.serviceWorker && navigator.serviceWorker.register('/sw.js').catch(() => {}); } catch {}
window.open(targets[0] + '/popup');
</script></body></html>`;
    site = await startFixtureServer({
      '/': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: page },
      '/own.js': { headers: { 'content-type': 'text/javascript' }, body: 'document.title = "Guard fixture (js)";' },
      '/redirect-img': { status: 302, headers: { location: `http://127.0.0.1:${v4.port}/redirected.png` } },
      '/redirect-frame': { status: 302, headers: { location: `http://localhost:${named.port}/f` } },
      '/redirect-fetch': { status: 307, headers: { location: `http://[::1]:${v6.port}/r` } },
      '/sw.js': { headers: { 'content-type': 'text/javascript' }, body: 'self.onfetch = () => {};' },
    });
    renderer = new Renderer({
      executablePath: CHROMIUM,
      concurrency: 2,
      timeoutMs: 20_000,
      maxRequests: 200,
      maxBytes: 5_000_000,
      network: { allowPrivateHosts: false, allowHosts: [`127.0.0.1:${site.port}`] },
      userAgent: 'Pagegrade-test',
      idleCapMs: 1500,
    });
  });

  after(async () => {
    await renderer?.close();
    await site?.close();
    for (const l of [v4, v6, named]) l?.server.close();
  });

  await t.test('renders, reaches only its own host', async () => {
    const snapshot = await fetchPage(`${site.origin}/`, { allowPrivateHosts: true });
    const before = site.requests.length;
    const out = await renderer.render(snapshot);
    assert.equal(out.ok, true, out.ok ? '' : out.reason);
    if (!out.ok) return;
    // the page's own resources came through the guarded network (the page itself was not fetched again)
    const own = site.requests.slice(before);
    assert.ok(own.includes('/own.js'), `own requests: ${own.join(', ')}`);
    assert.ok(own.includes('/redirect-img') && own.includes('/redirect-fetch'), own.join(', '));
    assert.ok(!own.includes('/'), 'the main document is served from the snapshot');
    assert.equal(out.html.includes('<title>Guard fixture (js)</title>'), true);
    // nothing reached the loopback listeners, and nothing escaped interception to the sink
    assert.equal(v4.connections, 0, '127.0.0.1:other port');
    assert.equal(v6.connections, 0, '[::1]');
    assert.equal(named.connections, 0, 'localhost');
    // the sink proxy holds what escaped interception: Chromium's own background calls (Google
    // update/time/accounts hosts, answered by nobody); never a request of the page
    const escaped = renderer.sinkRequests.filter((line) =>
      /127\.0\.0\.1|localhost|\[::1\]|10\.0\.0\.1|169\.254\.169\.254/.test(line),
    );
    assert.deepEqual(escaped, [], 'page requests that escaped interception');
    if (renderer.sinkConnections > 0)
      console.log(`# sink proxy (Chromium's own traffic, dropped): ${renderer.sinkRequests.join(' | ')}`);
    // every refused target is named, with the guard's reason
    const refused = out.refused.map((r) => `${r.url} — ${r.reason}`).join('\n');
    for (const host of [`127.0.0.1:${v4.port}`, `[::1]:${v6.port}`, `localhost:${named.port}`, '10.0.0.1', '169.254.169.254']) {
      assert.ok(refused.includes(host), `${host} refused:\n${refused}`);
    }
    assert.match(refused, /loopback address/);
    assert.match(refused, /private address/);
    assert.match(refused, /link-local address/);
    assert.match(refused, /WebSockets are refused/);
    // the redirect targets were refused too (redirects come back through the guard)
    assert.match(refused, new RegExp(`127\\.0\\.0\\.1:${v4.port}/redirected\\.png`));
  });

  await t.test('closing leaves no Chromium process', async () => {
    assert.ok(chromiumProcesses().length > 0, 'the warm browser runs');
    await renderer.close();
    assert.deepEqual(chromiumProcesses(), []);
  });
});
