// The check step's kept connections (src/services/batches/checks.ts: a ConnectionPool, one
// connection per host; docs/sites.md "Links and resources checked"), end to end on SQLite and
// PostgreSQL: a loopback site whose home page links to 30 URLs of another loopback host
// (elsewhere.test, a server of its own), both servers keeping connections alive for 5 s (the
// fixture servers' 1 ms otherwise closes every connection after its answer). A batch with
// check_external asks each of the 30 URLs once (HEAD) and the other host's robots.txt, over at
// most 2 TCP connections to that host — the server counts the connections it accepts — and
// every answer, the 404s among them, is the URL's verdict.
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { crawlFindings, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const LINKS = 30;
/** the other host's URLs that answer 404 (the others 200) */
const MISSING = new Set([4, 17, 29]);
const KEEP_ALIVE_MS = 5000;

interface LinkJson {
  source: string;
  target: string;
  internal: boolean;
  target_status: number | null;
}

describeEachDialect("the check step's kept connections", (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let site: FixtureServer;
  let other: FixtureServer;
  let E: string;
  /** the TCP connections the other host's server accepted */
  const sockets: Socket[] = [];
  /** its requests: method and path */
  const asked: string[] = [];

  before(async () => {
    app = await startBatchApp(dialect, { pollMs: 50 });
    t = app.t;
    user = await buildUser(t.services);
    other = await startFixtureServer();
    site = await startFixtureServer();
    for (const s of [site, other]) s.server.keepAliveTimeout = KEEP_ALIVE_MS;
    other.server.on('connection', (socket: Socket) => sockets.push(socket));
    other.server.prependListener('request', (req) => asked.push(`${req.method} ${req.url}`));
    E = `http://elsewhere.test:${other.port}`;
    other.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nAllow: /\n',
    });
    for (let i = 0; i < LINKS; i++)
      other.route(
        `/x/${i}`,
        MISSING.has(i)
          ? { status: 404, body: `<!doctype html><title>Missing ${i}</title>` }
          : { body: `<!doctype html><title>Page ${i}</title><p>${'text '.repeat(200)}</p>` },
      );
    const links = Array.from({ length: LINKS }, (_, i) => `<a href="${E}/x/${i}">elsewhere ${i}</a>`).join(
      ' ',
    );
    site.route('/', {
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title></head><body><h1>Home</h1><p>${links}</p></body></html>`,
    });
  });
  after(async () => {
    await app?.close();
    await site?.close();
    await other?.close();
  });

  test('30 URLs of another host checked over at most 2 connections, each once, every answer its verdict', async () => {
    const { id, options, findings } = await crawlFindings(t, user, {
      url: `${site.origin}/`,
      mode: 'crawl',
      max_pages: 10,
      check_external: 1,
      max_external_checks: 100,
    });
    assert.equal(options['check_external'], true);

    // every URL asked once (HEAD), after the host's robots.txt
    const paths = Array.from({ length: LINKS }, (_, i) => `HEAD /x/${i}`);
    assert.equal(asked[0], 'GET /robots.txt', asked.join(', '));
    assert.deepEqual(asked.slice(1).sort(), paths.sort());
    // …over one kept connection (2 at most: one may close at a time limit of either side)
    assert.ok(
      sockets.length >= 1 && sockets.length <= 2,
      `${sockets.length} connections for ${asked.length} requests`,
    );

    // every answer stored as the URL's verdict: the 404s broken, the others fine
    assert.deepEqual(
      findings
        .find((f) => f.id === 'broken_external_links')!
        .pages.map((p) => p.detail)
        .sort(),
      [...MISSING].map((i) => `${E}/x/${i} (404)`).sort(),
    );
    const res = await t.request({
      method: 'GET',
      url: `/api/v1/batches/${id}/links?internal=false&per_page=100`,
      headers: user.auth,
    });
    assert.equal(res.statusCode, 200, res.body);
    const external = (res.json() as { data: LinkJson[] }).data;
    assert.deepEqual(
      external.map((l) => [l.target, l.target_status]).sort(),
      Array.from({ length: LINKS }, (_, i) => [`${E}/x/${i}`, MISSING.has(i) ? 404 : 200]).sort(),
    );
  });
});
