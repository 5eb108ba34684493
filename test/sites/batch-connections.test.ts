// A batch's pages reuse their connections (docs/fetcher.md "Connections kept", issue 24 §4): a
// crawl of the plain generated fixture site, 4 pages in flight, worked by the real job engine on
// SQLite and PostgreSQL; the fixture server (keep-alive on) counts the TCP connections its page
// requests came over — at most the batch's concurrency + 2, where a connection a page used to be
// one a page. The site files (robots.txt, the sitemaps, the 404 probe, the favicon) are fetched
// once by the batch's discovery, on connections of their own, and are not counted.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { postgresDialect, sqliteDialect } from '../helpers/db.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

const CONCURRENCY = 4;
const SITE_FILES = /^\/(robots\.txt|sitemap|pagegrade-404-check-|favicon\.ico|llms\.txt)/;

for (const dialect of [sqliteDialect, postgresDialect]) {
  describe(`a batch's connections [${dialect.name}]`, { skip: dialect.skip }, () => {
    let r: BatchApp;
    let site: FixtureSite;
    const pageSockets = new Set<Socket>();
    let accepted = 0;
    before(async () => {
      r = await startBatchApp(dialect, { config: { crawlDelayMs: 0, crawlConcurrency: CONCURRENCY } });
      site = await startFixtureSite({ pages: 60, crawlDelay: null, plain: true });
      // the test kit's fixture server closes idle connections at once; a real site keeps them
      site.fixture.server.keepAliveTimeout = 10_000;
      site.fixture.server.on('connection', () => (accepted += 1));
      site.fixture.server.prependListener('request', (req: IncomingMessage) => {
        if (!SITE_FILES.test(req.url ?? '')) pageSockets.add(req.socket);
      });
    });
    after(async () => {
      await r?.close();
      await site?.close();
    });

    test(`a crawl of the 71-page site, ${CONCURRENCY} at a time: every page audited over ≤ ${CONCURRENCY} + 2 connections`, async () => {
      const user = await buildUser(r.t.services);
      const created = await r.t.services.batches.create(user.id, {
        url: `${site.origin}/`,
        mode: 'crawl',
        maxPages: 500,
      });
      const b = await batchEnded(r.t, user.id, created.id);
      assert.equal(b.status, 'done', b.error ?? '');
      const pageRequests = site.log.filter((l) => !SITE_FILES.test(l.path)).length;
      console.log(
        `# [${dialect.name}] ${b.progress.audited} pages audited, ${pageRequests} page requests over ${pageSockets.size} connections (${accepted} accepted in all, site files included)`,
      );
      assert.equal(b.progress.audited, site.expected.audited.length);
      assert.equal(b.progress.failed, 0);
      assert.equal(pageRequests, site.expected.audited.length, 'each page requested once');
      assert.ok(
        pageSockets.size <= CONCURRENCY + 2,
        `${pageSockets.size} connections for ${pageRequests} page requests at ${CONCURRENCY} at a time`,
      );
    });
  });
}
