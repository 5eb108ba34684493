// A batch's discovery and its site's politeness (docs/sites.md "How it works"): robots.txt first
// and alone; then the sitemap, the 404 probe, the favicon and /llms.txt — at most the batch's
// requests at once (PAGEGRADE_CRAWL_CONCURRENCY) when nothing asks for a delay between its
// requests, one after another when one does (PAGEGRADE_CRAWL_DELAY_MS or robots.txt's
// Crawl-delay); the sitemap asked for once (the sitemap the site files read is the one the
// seeds come from). Each site file but the 404 probe (a fresh path each time: the fixture
// server's own 404) answers after 100 ms, so that requests made together overlap at the server,
// which counts them. SQLite and PostgreSQL, the real job engine.
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { postgresDialect, sqliteDialect } from '../helpers/db.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { goodPage, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

const SITE_FILES = /^\/(robots\.txt|sitemap\.xml|pagegrade-404-check-|favicon\.ico|llms\.txt)/;
const CONCURRENCY = 4;

/** A site whose site files answer after 100 ms; it counts them, and the most answered at once. */
async function slowSiteFiles(robots: string) {
  const site = await startFixtureServer();
  const asked: string[] = [];
  let answering = 0;
  let mostAtOnce = 0;
  site.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!SITE_FILES.test(req.url ?? '')) return;
    asked.push(req.url!.startsWith('/pagegrade-404-check-') ? '/pagegrade-404-check-…' : req.url!);
    answering++;
    mostAtOnce = Math.max(mostAtOnce, answering);
    res.once('close', () => answering--);
  });
  const slow =
    (status: number, type: string, body: string) => (_req: IncomingMessage, res: ServerResponse) => {
      setTimeout(() => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      }, 100);
    };
  site.route('/robots.txt', slow(200, 'text/plain', robots));
  site.route(
    '/sitemap.xml',
    slow(
      200,
      'application/xml',
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/</loc></url></urlset>`,
    ),
  );
  site.route('/favicon.ico', slow(200, 'image/x-icon', 'icon'));
  site.route('/llms.txt', slow(404, 'text/plain', 'none'));
  site.route('/', { body: goodPage(site.origin) });
  return { site, asked, mostAtOnce: () => mostAtOnce };
}

for (const dialect of [sqliteDialect, postgresDialect]) {
  describe(`a batch's discovery requests [${dialect.name}]`, { skip: dialect.skip }, () => {
    let app: BatchApp;
    let user: TestUser;
    const sites: FixtureServer[] = [];
    before(async () => {
      app = await startBatchApp(dialect, {
        pollMs: 50,
        config: { crawlDelayMs: 0, crawlConcurrency: CONCURRENCY },
      });
      user = await buildUser(app.t.services);
    });
    after(async () => {
      await app?.close();
      for (const s of sites) await s.close();
    });

    const crawl = async (origin: string) => {
      const created = await app.t.services.batches.create(user.id, {
        url: `${origin}/`,
        mode: 'crawl',
        maxPages: 1,
      });
      return batchEnded(app.t, user.id, created.id);
    };
    /** a crawl of a site with this robots.txt: done, robots.txt first and alone, each other site file once */
    const crawlSiteFiles = async (robots: string) => {
      const s = await slowSiteFiles(robots);
      sites.push(s.site);
      const b = await crawl(s.site.origin);
      assert.equal(b.status, 'done', b.error ?? '');
      assert.equal(s.asked[0], '/robots.txt');
      assert.deepEqual(
        [...s.asked.slice(1)].sort(),
        ['/favicon.ico', '/llms.txt', '/pagegrade-404-check-…', '/sitemap.xml'],
        s.asked.join(', '),
      );
      return s;
    };

    test(`no delay: robots.txt alone, then the other site files ${CONCURRENCY} at once; the sitemap once`, async () => {
      const s = await crawlSiteFiles('User-agent: *\nAllow: /\n');
      // the four after robots.txt were asked together: the three slow ones overlapped at the
      // server (the probe's quick 404 may have come and gone first)
      assert.ok(s.mostAtOnce() >= 3 && s.mostAtOnce() <= CONCURRENCY, `${s.mostAtOnce()} at once`);
    });

    test('a Crawl-delay in robots.txt: the site files one after another, the sitemap once', async () => {
      const s = await crawlSiteFiles('User-agent: *\nCrawl-delay: 1\nAllow: /\n');
      assert.equal(s.mostAtOnce(), 1, `${s.mostAtOnce()} at once`);
    });
  });
}
