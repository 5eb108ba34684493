// Many requests at once to an https origin whose certificate fails verification: every one
// fails fast with the certificate's reason, and an audit of such a page ends with it. Before the
// fix, undici's own branch for ERR_TLS_CERT_ALTNAME_INVALID (a certificate for another name) left
// the failed request counted as running on its Client: the Client never drained, the site
// files' Pool dropped it, and a request queued behind the Pool's 4 connections (the 5th site
// file, /llms.txt) was never dispatched — nor aborted by its signal — so fetchPage never ended
// (docs/fetcher.md "A certificate that fails"). Each test has its own timeout: a hang fails it.
// A throwaway self-signed certificate is made with openssl (skipped, with the reason, without it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ConnectionPool, fetchPage } from '../../src/analyzer/fetch/index.js';
import { classifyAddress } from '../../src/analyzer/fetch/guard.js';
import { toFetchError } from '../../src/analyzer/fetch/errors.js';
import { fetchResource, Session } from '../../src/analyzer/fetch/session.js';
import { FetchError } from '../../src/analyzer/types.js';
import { makeCert } from '../helpers/tls-cert.js';
import { setMaxListeners } from 'node:events';

const lookup = async () => [{ address: '127.0.0.1', family: 4 }];
const policy = { allowPrivateHosts: true, classify: classifyAddress, lookup };
const PAGE = '<!doctype html><title>t</title><p>ok</p>';
/** a hang fails the test instead of the whole run */
const BOUND = { timeout: 10_000 };

describe('an https origin whose certificate fails, asked many things at once', () => {
  const made = makeCert('DNS:site.test');
  let h2: Http2SecureServer;
  let h1: HttpsServer;
  const ports = { h2: 0, h1: 0 };
  let served = 0;

  before(async () => {
    if (typeof made === 'string') return;
    h2 = createSecureServer({ ...made, allowHTTP1: true }, (_req, res) => {
      served++;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    });
    h1 = createHttpsServer(made, (_req, res) => {
      served++;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    });
    await new Promise<void>((r) => h2.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => h1.listen(0, '127.0.0.1', r));
    ports.h2 = (h2.address() as AddressInfo).port;
    ports.h1 = (h1.address() as AddressInfo).port;
  });
  after(async () => {
    if (typeof made === 'string') return;
    h1.closeAllConnections();
    await Promise.all([new Promise((r) => h2.close(r)), new Promise((r) => h1.close(r))]);
  });

  // untrusted: the chain fails (no CA given); mismatch: the chain is trusted, the name is not in it
  const cases = [
    {
      name: 'untrusted (self-signed)',
      host: 'site.test',
      trust: false,
      reason: 'the certificate is self-signed and not trusted',
    },
    {
      name: 'for another name',
      host: 'other.test',
      trust: true,
      reason: 'the certificate is not valid for other.test',
    },
  ];

  for (const c of cases) {
    for (const server of ['h2', 'h1'] as const) {
      for (const kind of ['extra', 'page'] as const) {
        test(
          `${c.name}, ${server}, ${kind}: 1, 5, 8 and 20 requests at once each fail with the certificate's reason`,
          BOUND,
          async (t) => {
            if (typeof made === 'string') return t.skip(made);
            for (const n of [1, 5, 8, 20]) {
              const signal = new AbortController().signal;
              // one listener per request (20 here): not a leak
              setMaxListeners(64, signal);
              const session: Session = new Session(
                policy,
                10_000,
                { page: signal, extra: signal },
                c.trust ? made.cert : undefined,
              );
              try {
                const origin = `https://${c.host}:${ports[server]}`;
                const settled: PromiseSettledResult<unknown>[] = await Promise.allSettled(
                  Array.from({ length: n }, (_, i) =>
                    fetchResource(session, `${origin}/file-${i}`, {
                      kind,
                      maxRedirects: 5,
                      maxBytes: 65536,
                      truncate: true,
                      signal,
                      headers: {},
                    }),
                  ),
                );
                assert.equal(settled.length, n);
                for (const s of settled) {
                  assert.equal(s.status, 'rejected', `${n} at once: one was answered`);
                  const err = toFetchError((s as PromiseRejectedResult).reason, `${origin}/`, 10_000);
                  assert.equal(err.code, 'tls', `${n} at once: ${err.message}`);
                  assert.equal(err.message, `The secure (TLS) connection to ${c.host} failed: ${c.reason}.`);
                }
              } finally {
                await session.close();
              }
            }
            assert.equal(served, 0, 'no request reached the server');
          },
        );
      }
    }

    test(
      `${c.name}: an audit ends with the TLS reason (its five site files asked at once)`,
      BOUND,
      async (t) => {
        if (typeof made === 'string') return t.skip(made);
        for (const server of ['h2', 'h1'] as const) {
          for (let round = 0; round < 3; round++) {
            await assert.rejects(
              fetchPage(`https://${c.host}:${ports[server]}/`, {
                allowPrivateHosts: true,
                lookup,
                ...(c.trust ? { tlsCa: made.cert } : {}),
              }),
              (err: unknown) => {
                assert.ok(err instanceof FetchError);
                assert.equal(err.code, 'tls');
                assert.equal(err.message, `The secure (TLS) connection to ${c.host} failed: ${c.reason}.`);
                return true;
              },
            );
          }
        }
      },
    );

    test(`${c.name}: a batch's kept connection that failed does not hold the next page`, BOUND, async (t) => {
      if (typeof made === 'string') return t.skip(made);
      // one connection per origin: the second page takes the Client the first one failed on
      const pool = new ConnectionPool({ perOrigin: 1 });
      const siteFiles = { robots: null, sitemap: null, notFoundProbe: null, favicon: null, llms: null };
      try {
        for (let page = 0; page < 3; page++) {
          await assert.rejects(
            fetchPage(`https://${c.host}:${ports.h2}/p${page}`, {
              allowPrivateHosts: true,
              lookup,
              connections: pool,
              siteFiles,
              ...(c.trust ? { tlsCa: made.cert } : {}),
            }),
            (err: unknown) => err instanceof FetchError && err.code === 'tls',
          );
        }
      } finally {
        await pool.close();
      }
    });
  }
});
