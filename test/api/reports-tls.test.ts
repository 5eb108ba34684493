// POST /api/v1/reports of an https page whose certificate fails verification: a 422 naming the
// TLS reason under errors.url, nothing stored — and the request ends (an audit of a page whose
// certificate is for another name used to never end: docs/fetcher.md "A certificate that fails").
// Over every dialect. Two throwaway certificates for `tls.test` are made with openssl (skipped,
// with the reason, without it): the analyzer (the real one with testLookup) trusts the first, so
// `other.test` on its server is a certificate for another name; the second is not trusted.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { analyze } from '../../src/analyzer/index.js';
import { forEachDialect, withBody } from '../helpers/api-harness.js';
import { testLookup } from '../helpers/config.js';
import { makeCert } from '../helpers/tls-cert.js';

const trusted = makeCert('DNS:tls.test');
const untrusted = makeCert('DNS:tls.test');
const servers: Http2SecureServer[] = [];
const ports = { trusted: 0, untrusted: 0 };

before(async () => {
  for (const which of ['trusted', 'untrusted'] as const) {
    const made = which === 'trusted' ? trusted : untrusted;
    if (typeof made === 'string') return;
    const server = createSecureServer({ ...made, allowHTTP1: true }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>t</title><p>ok</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    ports[which] = (server.address() as AddressInfo).port;
  }
});
after(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

forEachDialect(
  'reports API, a certificate that fails',
  (h) => {
    async function totalFor(auth: Record<string, string>): Promise<number> {
      const res = await h().request({ url: '/api/v1/reports', headers: auth });
      assert.equal(res.statusCode, 200);
      return (res.json() as { meta: { total: number } }).meta.total;
    }

    test(
      'untrusted, for another name: 422 with the TLS reason under errors.url, nothing stored',
      { timeout: 20_000 },
      async (t) => {
        if (typeof trusted === 'string') return t.skip(trusted);
        if (typeof untrusted === 'string') return t.skip(untrusted);
        const before = await totalFor(h().alice.auth);
        // the control: the trusted server under the name in its certificate is audited
        const ok = await h().request(
          withBody('POST', '/api/v1/reports', h().alice.auth, { url: `https://tls.test:${ports.trusted}/` }),
        );
        assert.equal(ok.statusCode, 201, ok.body);
        for (const [url, host, reason] of [
          [
            `https://other.test:${ports.trusted}/`,
            'other.test',
            'the certificate is not valid for other.test',
          ],
          [
            `https://tls.test:${ports.untrusted}/`,
            'tls.test',
            'the certificate is self-signed and not trusted',
          ],
        ] as const) {
          const res = await h().request(withBody('POST', '/api/v1/reports', h().alice.auth, { url }));
          assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
          const body = res.json() as { message: string; errors: { url: string[] } };
          assert.deepEqual(body.errors.url, [`The secure (TLS) connection to ${host} failed: ${reason}.`]);
          assert.equal(body.message, body.errors.url[0]);
        }
        assert.equal(await totalFor(h().alice.auth), before + 1, 'only the control was stored');
      },
    );
  },
  {
    analyze: (url, options) =>
      analyze(
        url,
        Object.assign({}, options, {
          lookup: testLookup,
          tlsCa: typeof trusted === 'string' ? undefined : trusted.cert,
        }),
      ),
  },
);
