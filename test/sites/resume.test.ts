// Batches that outlive a process, and batches that run out of time (docs/sites.md):
// - kill -9 of the service mid-crawl, then a restart on the same SQLite file: the batch goes on
//   where it was and ends with every page audited once — no page stored twice, none lost;
// - a whole-batch time budget ends an endless site (a calendar) cleanly: done, with the pages
//   left over skipped for the budget.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { jobKinds } from '../../src/jobs/kinds/index.js';
import { batchPageKind } from '../../src/jobs/kinds/batch-page.js';
import { batchEnded, startBatchApp } from '../helpers/batch-app.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { waitFor } from '../helpers/queues.js';
import { api, startService, type ServiceProcess } from '../helpers/service-process.js';
import { randomId } from '../helpers/services.js';

const KEY = `pg_${randomId()}${randomId()}${randomId()}`;

/** N pages on 127.0.0.1, each linking to the next three and home, answering after `latencyMs`. */
async function chainSite(n: number, latencyMs: number): Promise<FixtureServer> {
  const site = await startFixtureServer();
  for (let i = 0; i < n; i++) {
    const path = i === 0 ? '/' : `/p/${i}`;
    const links = [1, 2, 3]
      .map((d) => i + d)
      .filter((j) => j < n)
      .map((j) => `<a href="/p/${j}">Page ${j}</a>`)
      .join(' ');
    site.route(path, (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page ${i} of the chain</title></head><body><h1>Page ${i}</h1><p>Words about page ${i}.</p>${links} <a href="/">Home</a></body></html>`,
        );
      }, latencyMs);
    });
  }
  return site;
}

/** PAGEGRADE_BATCH_PAGE_LEASE_MS of the kill test's services */
const PAGE_LEASE_MS = 3000;

interface BatchBody {
  data: { id: number; status: string; progress: { discovered: number; audited: number; remaining: number } };
}

describe('batches: kill -9 mid-batch (SQLite)', () => {
  let dir = '';
  let site: FixtureServer | null = null;
  const services: ServiceProcess[] = [];
  after(async () => {
    for (const s of services) await s.stop(1000);
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test(
    'the batch resumes after a restart: every page audited once, none lost',
    { timeout: 240_000 },
    async () => {
      dir = mkdtempSync(join(tmpdir(), 'pagegrade-batch-kill-'));
      const N = 40;
      site = await chainSite(N, 150);
      const env = {
        DATABASE_URL: `sqlite:${join(dir, 'pagegrade.db')}`,
        PAGEGRADE_BOOTSTRAP_KEY: KEY,
        PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
        PAGEGRADE_RATE_LIMIT: '0',
        PAGEGRADE_JOB_POLL_MS: '100',
        PAGEGRADE_CRAWL_DELAY_MS: '0',
        // a batch page's lease (renewed every third of it while the page runs): the pages the
        // dead process held are taken up again once it has expired — 3 s instead of the default
        // 15 s, waited out for nothing else
        PAGEGRADE_BATCH_PAGE_LEASE_MS: String(PAGE_LEASE_MS),
      };
      const first = await startService(env, 90_000);
      services.push(first);
      const created = await api(first.origin, KEY, 'POST', '/api/v1/batches', {
        url: `${site.origin}/`,
        mode: 'crawl',
        max_pages: String(N),
        max_depth: '50',
      });
      assert.equal(created.status, 202, JSON.stringify(created.body));
      const id = (created.body as BatchBody).data.id;
      await waitFor(
        async () => {
          const b = (await api(first.origin, KEY, 'GET', `/api/v1/batches/${id}`)).body as BatchBody;
          return b.data.progress.audited >= 8;
        },
        'a few pages audited',
        90_000,
      );
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));

      const second = await startService(env, 90_000);
      services.push(second);
      const resumed = ((await api(second.origin, KEY, 'GET', `/api/v1/batches/${id}`)).body as BatchBody)
        .data;
      assert.equal(resumed.status, 'running');
      assert.ok(
        resumed.progress.audited < N,
        `killed mid-batch (${resumed.progress.audited} of ${N} audited)`,
      );
      // the jobs held by the dead process are taken up again when their lease has expired
      const done = await waitFor(
        async () => {
          const b = ((await api(second.origin, KEY, 'GET', `/api/v1/batches/${id}`)).body as BatchBody).data;
          return b.status === 'done' ? b : null;
        },
        'the batch to finish after the restart',
        120_000,
      );
      assert.equal(done!.progress.discovered, N);
      assert.equal(done!.progress.audited, N, 'every page audited');
      assert.equal(done!.progress.remaining, 0);
      // one report per page: none stored twice, none lost
      const reports = await api(second.origin, KEY, 'GET', `/api/v1/reports?batch=${id}&per_page=100`);
      assert.equal(reports.status, 200, JSON.stringify(reports.body));
      const urls = (reports.body as { data: { url: string }[] }).data
        .map((r) => new URL(r.url).pathname)
        .sort();
      const expected = Array.from({ length: N }, (_, i) => (i === 0 ? '/' : `/p/${i}`)).sort();
      assert.deepEqual(urls, expected);
    },
  );
});

describe('batches: the whole-batch time budget (SQLite)', () => {
  test(
    'an endless site ends cleanly at the budget: done, the rest skipped for it',
    { timeout: 120_000 },
    async () => {
      // every page links to three new ones: the crawl never runs out of pages by itself
      const site = await startFixtureServer();
      site.route('/', (req, res) => {
        const n = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('n') ?? '0');
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(
            `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Day ${n}</title></head><body><h1>Day ${n}</h1>${[1, 2, 3].map((d) => `<a href="/?n=${n * 3 + d}">Day ${n * 3 + d}</a>`).join(' ')}</body></html>`,
          );
        }, 100);
      });
      const app = await startBatchApp(sqliteDialect, { config: { batchTimeBudgetMs: 1500 } });
      const t = app.t;
      try {
        const user = await buildUser(t.services);
        const started = Date.now();
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/batches',
          headers: { ...user.auth, 'content-type': 'application/json' },
          payload: { url: `${site.origin}/`, mode: 'crawl', max_pages: 5000, max_depth: 50 },
        });
        assert.equal(res.statusCode, 202, res.body);
        const id = (res.json() as BatchBody).data.id;
        const done = await batchEnded(t, user.id, id);
        assert.equal(done!.status, 'done');
        const took = Date.now() - started;
        assert.ok(took < 20_000, `ended soon after its 1.5 s budget (${took} ms)`);
        assert.ok(done!.progress.audited >= 1, 'some pages were audited');
        assert.ok(done!.progress.skipped >= 1, 'the pages found after the budget were skipped');
        assert.equal(done!.progress.remaining, 0);
        // the skipped pages say why
        const failures = await t.request({
          method: 'GET',
          url: `/api/v1/batches/${id}/failures?per_page=100`,
          headers: user.auth,
        });
        assert.equal(failures.statusCode, 200, failures.body);
        assert.match(failures.body, /The batch reached its time budget\./);
      } finally {
        await app.close();
        await site.close();
      }
    },
  );
});

describe('batches: a page whose job dies (SQLite)', () => {
  test('the page ends failed with why, and the batch finishes', { timeout: 120_000 }, async () => {
    const site = await chainSite(3, 0);
    let doomed = 0;
    let tries = 0;
    const app = await startBatchApp(sqliteDialect, {
      pollMs: 50,
      // batch.page tried twice, quickly; its handler fails for one page whatever happens (as a
      // database error or a bug would), the others are audited
      kinds: jobKinds.map((k) =>
        k.kind === 'batch.page' ? batchPageKind({ maxAttempts: 2, backoff: { baseMs: 50, maxMs: 100 } }) : k,
      ),
      workerServices: (real) => ({
        ...real,
        batches: {
          ...real.batches,
          processPage: async (batchId: number, pageId: number, signal?: AbortSignal) => {
            if (pageId === doomed) {
              tries++;
              throw new Error('the store is on fire');
            }
            return real.batches.processPage(batchId, pageId, signal);
          },
        },
      }),
    });
    const t = app.t;
    const engine = app.engine;
    try {
      const user = await buildUser(t.services);
      const urls = [`${site.origin}/`, `${site.origin}/p/1`, `${site.origin}/p/2`];
      // the second URL's page: ids are given in the order of the list
      const before = await t.services.batches.list(user.id, { page: 1, perPage: 1 });
      assert.equal(before.total, 0);
      doomed = 2;
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/batches',
        headers: { ...user.auth, 'content-type': 'application/json' },
        payload: { url: urls[0], mode: 'list', urls },
      });
      assert.equal(res.statusCode, 202, res.body);
      const id = (res.json() as BatchBody).data.id;
      const done = await batchEnded(t, user.id, id);
      assert.equal(done!.status, 'done');
      assert.equal(tries, 2, 'both attempts ran');
      assert.equal(done!.progress.audited, 2);
      assert.equal(done!.progress.failed, 1);
      assert.equal(done!.progress.remaining, 0);
      const failures = await t.services.batches.failures(user.id, id, { page: 1, perPage: 10 });
      assert.deepEqual(
        failures.items.map((f) => [f.url, f.state, f.reason]),
        [[urls[1], 'failed', 'The page could not be audited: the store is on fire']],
      );
      // the job itself is dead, for inspection
      assert.equal((await engine.queue.counts())['batch.page']?.dead, 1);
    } finally {
      await app.close();
      await site.close();
    }
  });
});

describe('batches: redirects in a crawl (SQLite)', () => {
  test(
    'a redirect that robots.txt disallows or that leaves the site is not followed',
    { timeout: 120_000 },
    async () => {
      const other = await startFixtureServer({ '/': { body: '<!doctype html><title>Elsewhere</title>' } });
      const site = await startFixtureServer({
        '/robots.txt': {
          headers: { 'content-type': 'text/plain' },
          body: 'User-agent: *\nDisallow: /private/\n',
        },
        '/': {
          body: '<!doctype html><html lang="en"><title>Home</title><a href="/go">Go</a> <a href="/out">Out</a> <a href="/ok">Ok</a></html>',
        },
        '/go': { status: 301, headers: { location: '/private/secret' } },
        '/out': { status: 302, headers: { location: `${other.origin.replace('127.0.0.1', 'localhost')}/` } },
        '/ok': { status: 301, headers: { location: '/fine' } },
        '/fine': { body: '<!doctype html><html lang="en"><title>Fine</title></html>' },
        '/private/secret': { body: '<!doctype html><title>Secret</title>' },
      });
      const app = await startBatchApp(sqliteDialect, { pollMs: 50 });
      const t = app.t;
      try {
        const user = await buildUser(t.services);
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/batches',
          headers: { ...user.auth, 'content-type': 'application/json' },
          payload: { url: `${site.origin}/`, mode: 'crawl' },
        });
        assert.equal(res.statusCode, 202, res.body);
        const id = (res.json() as BatchBody).data.id;
        const done = await batchEnded(t, user.id, id);
        assert.equal(done!.status, 'done');
        assert.ok(!site.requests.includes('/private/secret'), 'the disallowed target was never requested');
        assert.deepEqual(other.requests, [], 'the other site was never requested');
        assert.ok(site.requests.includes('/fine'), 'an allowed redirect is followed');
        const failures = await t.services.batches.failures(user.id, id, { page: 1, perPage: 10 });
        const why = new Map(
          failures.items.map((f) => [new URL(f.url).pathname, [f.state, f.reason] as const]),
        );
        assert.equal(why.get('/go')?.[0], 'skipped');
        assert.match(
          why.get('/go')?.[1] ?? '',
          /redirects to .*\/private\/secret, which is not followed: robots\.txt disallows it/,
        );
        assert.equal(why.get('/out')?.[0], 'skipped');
        assert.match(why.get('/out')?.[1] ?? '', /which is not followed: it leaves the site/);
      } finally {
        await app.close();
        await site.close();
        await other.close();
      }
    },
  );
});
