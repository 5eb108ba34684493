// fetchPage end to end against a real HTTP server on 127.0.0.1 (allowPrivateHosts: true):
// redirects, compression, charsets, statuses, limits, errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, deflateRawSync, gzipSync } from 'node:zlib';
import { DEFAULT_USER_AGENT, fetchPage } from '../../src/analyzer/fetch/index.js';
import { FetchError, type FetchErrorCode } from '../../src/analyzer/types.js';
import { goodPage, html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const opts = { allowPrivateHosts: true };

async function rejectsWith(p: Promise<unknown>, code: FetchErrorCode, message?: RegExp): Promise<FetchError> {
  let caught: unknown;
  await assert.rejects(p, (err: unknown) => {
    caught = err;
    return true;
  });
  assert.ok(caught instanceof FetchError, `expected a FetchError, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  if (message) assert.match(caught.message, message);
  return caught;
}

describe('fetchPage', () => {
  let site: FixtureServer;
  let page: string;
  before(async () => {
    site = await startFixtureServer();
    page = goodPage(site.origin);
    site.route('/', html(page));
  });
  after(() => site.close());

  test('a plain page: status, headers, sizes, timings, user agent', async () => {
    let ua = '';
    site.route('/ua', (req, res) => {
      ua = req.headers['user-agent'] ?? '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'x-thing': 'one' });
      res.end(page);
    });
    const snap = await fetchPage(`${site.origin}/ua#frag`, opts);
    assert.equal(snap.url, `${site.origin}/ua`);
    assert.equal(snap.finalUrl, `${site.origin}/ua`);
    assert.equal(snap.status, 200);
    assert.equal(snap.httpVersion, '1.1');
    assert.equal(snap.headers['x-thing'], 'one');
    assert.equal(snap.contentType, 'text/html');
    assert.equal(snap.text, page);
    assert.equal(snap.body.length, Buffer.byteLength(page));
    assert.equal(snap.transferBytes, Buffer.byteLength(page));
    assert.deepEqual(snap.redirects, []);
    assert.equal(snap.timings.dns_ms, null, 'an IP literal needs no DNS');
    assert.equal(typeof snap.timings.connect_ms, 'number');
    assert.equal(snap.timings.tls_ms, null);
    assert.ok(snap.timings.ttfb_ms !== null && snap.timings.ttfb_ms >= 0);
    assert.ok(snap.timings.total_ms >= 0);
    assert.equal(ua, DEFAULT_USER_AGENT);
    assert.match(ua, /^Pagegrade\/\d+\.\d+\.\d+ \(\+https:\/\/github\.com\/pagegrade\/pagegrade\)$/);

    await fetchPage(`${site.origin}/ua`, { ...opts, userAgent: 'MyBot/1.0' });
    assert.equal(ua, 'MyBot/1.0');
  });

  test('DNS timing is measured with a (custom) lookup, and Host keeps the name', async () => {
    let host = '';
    site.route('/host', (req, res) => {
      host = req.headers.host ?? '';
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>x</title>');
    });
    const lookup = async () => {
      await new Promise((r) => setTimeout(r, 30));
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const snap = await fetchPage(`http://site.test:${site.port}/host`, { ...opts, lookup });
    assert.equal(host, `site.test:${site.port}`);
    assert.ok(snap.timings.dns_ms !== null && snap.timings.dns_ms >= 25, `dns_ms ${snap.timings.dns_ms}`);
  });

  test('redirects: the chain is recorded, relative Location resolved, every status followed', async () => {
    site.route('/r1', { status: 301, headers: { location: '/r2' } });
    site.route('/r2', { status: 302, headers: { location: 'r3?x=1' } });
    site.route('/r3?x=1', { status: 303, headers: { location: `${site.origin}/r4` } });
    site.route('/r4', { status: 307, headers: { location: '//127.0.0.1:' + site.port + '/r5' } });
    site.route('/r5', { status: 308, headers: { location: '/' } });
    const snap = await fetchPage(`${site.origin}/r1`, opts);
    assert.equal(snap.finalUrl, `${site.origin}/`);
    assert.deepEqual(snap.redirects, [
      { url: `${site.origin}/r1`, status: 301 },
      { url: `${site.origin}/r2`, status: 302 },
      { url: `${site.origin}/r3?x=1`, status: 303 },
      { url: `${site.origin}/r4`, status: 307 },
      { url: `${site.origin}/r5`, status: 308 },
    ]);
    assert.equal(snap.text, page);
  });

  test('10 redirects are followed; 11 fail with too_many_redirects', async () => {
    for (let i = 0; i < 11; i++)
      site.route(`/hop${i}`, { status: 302, headers: { location: `/hop${i + 1}` } });
    site.route('/hop11', html(page));
    const ten = await fetchPage(`${site.origin}/hop1`, opts);
    assert.equal(ten.redirects.length, 10);
    await rejectsWith(
      fetchPage(`${site.origin}/hop0`, opts),
      'too_many_redirects',
      /^The page at http:\/\/127\.0\.0\.1:\d+\/hop0 redirects more than 10 times/,
    );
  });

  test('credentials in a redirect target are dropped from the URLs the snapshot records', async () => {
    site.route('/creds-end', html(page));
    site.route('/to-creds', {
      status: 302,
      headers: { location: site.origin.replace('://', '://user:secret@') + '/creds-end' },
    });
    const snap = await fetchPage(`${site.origin}/to-creds`, opts);
    assert.equal(snap.finalUrl, `${site.origin}/creds-end`);
    assert.ok(!JSON.stringify(snap.redirects).includes('secret'));
  });

  test('a redirect to another scheme is refused', async () => {
    site.route('/to-ftp', { status: 302, headers: { location: 'ftp://example.com/' } });
    await rejectsWith(fetchPage(`${site.origin}/to-ftp`, opts), 'invalid_url', /not an http or https URL/);
  });

  for (const [name, encode] of [
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
    ['deflate', deflateRawSync],
  ] as const) {
    test(`a ${name} page is decoded; transfer < html bytes`, async () => {
      let accept = '';
      site.route(`/${name}`, (req, res) => {
        accept = String(req.headers['accept-encoding']);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': name });
        res.end(encode(Buffer.from(page)));
      });
      const snap = await fetchPage(`${site.origin}/${name}`, opts);
      assert.equal(accept, 'gzip, deflate, br');
      assert.equal(snap.text, page);
      assert.equal(snap.body.length, Buffer.byteLength(page));
      assert.ok(snap.transferBytes < snap.body.length / 2, `transfer ${snap.transferBytes}`);
      assert.equal(snap.headers['content-encoding'], name);
    });
  }

  test('charset from the header: windows-1252', async () => {
    const body = Buffer.concat([
      Buffer.from('<!doctype html><title>Caf'),
      Buffer.from([0xe9]),
      Buffer.from('</title>'),
    ]);
    site.route('/cp1252', {
      status: 200,
      headers: { 'content-type': 'text/html; charset=windows-1252' },
      body,
    });
    const snap = await fetchPage(`${site.origin}/cp1252`, opts);
    assert.deepEqual(snap.charset, { name: 'windows-1252', source: 'header' });
    assert.equal(snap.text, '<!doctype html><title>Café</title>');
  });

  test('charset from <meta charset>: shift_jis; and from <meta http-equiv>: iso-8859-1', async () => {
    // 日本語 in Shift_JIS
    const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);
    site.route('/sjis', {
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: Buffer.concat([
        Buffer.from('<html><head><meta charset="Shift_JIS"><title>'),
        sjis,
        Buffer.from('</title>'),
      ]),
    });
    const snap = await fetchPage(`${site.origin}/sjis`, opts);
    assert.deepEqual(snap.charset, { name: 'shift_jis', source: 'meta' });
    assert.ok(snap.text.includes('<title>日本語</title>'));

    site.route('/equiv', {
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: Buffer.concat([
        Buffer.from(
          '<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><p>na',
        ),
        Buffer.from([0xef]),
        Buffer.from('ve'),
      ]),
    });
    const eq = await fetchPage(`${site.origin}/equiv`, opts);
    assert.deepEqual(eq.charset, { name: 'windows-1252', source: 'meta' });
    assert.ok(eq.text.endsWith('<p>naïve'));
  });

  test('a BOM wins over the header; no declaration means utf-8', async () => {
    site.route('/bom', {
      status: 200,
      headers: { 'content-type': 'text/html; charset=windows-1252' },
      body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Café</p>')]),
    });
    const bom = await fetchPage(`${site.origin}/bom`, opts);
    assert.deepEqual(bom.charset, { name: 'utf-8', source: 'bom' });
    assert.equal(bom.text, '<p>Café</p>');

    site.route('/plain', { status: 200, headers: { 'content-type': 'text/html' }, body: '<p>Café</p>' });
    const plain = await fetchPage(`${site.origin}/plain`, opts);
    assert.deepEqual(plain.charset, { name: 'utf-8', source: 'default' });
    assert.equal(plain.text, '<p>Café</p>');
  });

  test('403, 404, 429, 503 HTML pages are returned, not thrown', async () => {
    for (const status of [403, 404, 429, 503]) {
      site.route(`/s${status}`, html(`<!doctype html><title>Error ${status}</title>`, {}, status));
      const snap = await fetchPage(`${site.origin}/s${status}`, opts);
      assert.equal(snap.status, status);
      assert.equal(snap.text, `<!doctype html><title>Error ${status}</title>`);
    }
  });

  test('a page that stalls mid-body times out within the budget', async () => {
    site.route('/stall', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<!doctype html><html><head><title>Stalling</title>');
      // never ends
    });
    const t0 = Date.now();
    await rejectsWith(
      fetchPage(`${site.origin}/stall`, { ...opts, timeoutMs: 500 }),
      'timeout',
      /^The page at http:\/\/127\.0\.0\.1:\d+\/stall did not load within 0\.5 seconds \(the time limit\)\.$/,
    );
    const elapsed = Date.now() - t0;
    assert.ok(elapsed >= 450 && elapsed < 1000, `took ${elapsed} ms`);
  });

  test('a server that never answers times out', async () => {
    site.route('/silent', () => undefined);
    const t0 = Date.now();
    await rejectsWith(fetchPage(`${site.origin}/silent`, { ...opts, timeoutMs: 400 }), 'timeout');
    assert.ok(Date.now() - t0 < 900);
  });

  test('over the size limit: plain, and decoded (a small gzip that inflates past the limit)', async () => {
    site.route('/big', html(`<!doctype html><p>${'x'.repeat(50_000)}</p>`));
    await rejectsWith(
      fetchPage(`${site.origin}/big`, { ...opts, maxBytes: 10_000 }),
      'too_large',
      /is larger than 10 KB \(the size limit\)\.$/,
    );
    const bomb = gzipSync(Buffer.from(`<!doctype html><p>${' '.repeat(20_000_000)}`));
    assert.ok(bomb.length < 100_000);
    site.route('/bomb', {
      status: 200,
      headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
      body: bomb,
    });
    await rejectsWith(
      fetchPage(`${site.origin}/bomb`, { ...opts, maxBytes: 1024 * 1024 }),
      'too_large',
      /1 MB/,
    );
  });

  test('the size limit is enforced while streaming (an endless body)', async () => {
    site.route('/endless', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      pump();
      res.on('close', () => res.removeAllListeners('drain'));
    });
    const t0 = Date.now();
    await rejectsWith(fetchPage(`${site.origin}/endless`, { ...opts, maxBytes: 256 * 1024 }), 'too_large');
    assert.ok(Date.now() - t0 < 2000);
  });

  test('not HTML: application/json, image/png; sniffed when there is no Content-Type', async () => {
    site.route('/json', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    await rejectsWith(
      fetchPage(`${site.origin}/json`, opts),
      'not_html',
      /^The URL http:\/\/127\.0\.0\.1:\d+\/json returned application\/json, not an HTML page/,
    );
    site.route('/xhtml', {
      status: 200,
      headers: { 'content-type': 'application/xhtml+xml' },
      body: '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head></html>',
    });
    assert.equal((await fetchPage(`${site.origin}/xhtml`, opts)).contentType, 'application/xhtml+xml');

    const untyped = (path: string, body: string | Buffer) =>
      site.route(path, (_req, res) => {
        res.removeHeader('content-type');
        res.writeHead(200);
        res.end(body);
      });
    untyped('/untyped-html', '\n  <!DOCTYPE html><title>ok</title>');
    const sniffed = await fetchPage(`${site.origin}/untyped-html`, opts);
    assert.equal(sniffed.contentType, '');
    assert.equal(sniffed.status, 200);
    untyped('/untyped-bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]));
    await rejectsWith(fetchPage(`${site.origin}/untyped-bin`, opts), 'not_html', /no Content-Type/);
  });

  test('a refused port', async () => {
    const closed = await startFixtureServer();
    const port = closed.port;
    await closed.close();
    await rejectsWith(
      fetchPage(`http://127.0.0.1:${port}/`, opts),
      'refused',
      new RegExp(`^The server at 127\\.0\\.0\\.1 refused the connection on port ${port}\\.$`),
    );
  });

  test('DNS failure', async () => {
    const lookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND example.invalid'), { code: 'ENOTFOUND' });
    };
    await rejectsWith(
      fetchPage('http://example.invalid/', { lookup }),
      'dns',
      /^The host example\.invalid could not be resolved \(DNS lookup failed\)\.$/,
    );
    await rejectsWith(fetchPage('http://empty.example/', { lookup: async () => [] }), 'dns');
  });

  test('TLS failure (https to a plain HTTP port)', async () => {
    await rejectsWith(
      fetchPage(`https://127.0.0.1:${site.port}/`, opts),
      'tls',
      /^The secure \(TLS\) connection to 127\.0\.0\.1 failed: the server did not answer with TLS \(is it plain HTTP on this port\?\)\.$/,
    );
  });

  test('cancellation through options.signal', async () => {
    site.route('/slow', (_req, res) => {
      setTimeout(() => res.end(), 2000).unref();
    });
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('cancelled by caller')), 100);
    await assert.rejects(
      fetchPage(`${site.origin}/slow`, { ...opts, signal: ac.signal }),
      /cancelled by caller/,
    );
  });
});
