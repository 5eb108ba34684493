// sitemap_too_large (issue 21 §3; docs/sites.md) end to end, on SQLite and PostgreSQL: a loopback
// site whose sitemap index names a small sitemap, one over the fetcher's 5 MB cap (read up to
// the cap only: itself the finding) and one of 50,001 URLs; the batch keeps each file it read
// with its URL count and uncompressed size, and the finding lists the two large files with
// them. A batch made before the files were kept (no sitemap_files) and a list batch find none.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachDialect, type TestApp } from '../helpers/app.js';
import { crawlFindings, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { findBatch, findSitemapFiles } from '../../src/store/batches.repository.js';
import { analyseBatch } from '../../src/services/batches/results.js';

const BIG_URLS = 50_001;

async function site(): Promise<FixtureServer> {
  const s = await startFixtureServer();
  const o = s.origin;
  const xml = { 'content-type': 'application/xml' };
  const urlset = (locs: string[], pad = '') =>
    `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}${pad}</urlset>`;
  for (const p of ['/', '/a', '/b'])
    s.route(p, {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: `<!doctype html><html lang="en"><head><title>Page ${p}</title></head><body><h1>${p}</h1><a href="/a">a</a></body></html>`,
    });
  s.route('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: `Sitemap: ${o}/sitemap-index.xml\n`,
  });
  s.route('/sitemap-index.xml', {
    headers: xml,
    body: `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
      '/small.xml',
      '/huge.xml',
      '/big.xml',
    ]
      .map((p) => `<sitemap><loc>${o}${p}</loc></sitemap>`)
      .join('')}</sitemapindex>`,
  });
  s.route('/small.xml', { headers: xml, body: urlset(['/', '/a', '/b'].map((p) => `${o}${p}`)) });
  // 6 MB: a few URLs, then a comment past the 5 MB cap
  s.route('/huge.xml', { headers: xml, body: urlset([`${o}/b`], `<!-- ${'x'.repeat(6 * 1024 * 1024)} -->`) });
  s.route('/big.xml', {
    headers: xml,
    body: urlset(Array.from({ length: BIG_URLS }, (_, i) => `${o}/p/${i}`)),
  });
  return s;
}

describeEachDialect('sitemap_too_large', (dialect) => {
  let app: BatchApp;
  let t: TestApp;
  let user: TestUser;
  let s: FixtureServer;

  before(async () => {
    app = await startBatchApp(dialect, { pollMs: 50 });
    t = app.t;
    user = await buildUser(t.services);
    s = await site();
  });
  after(async () => {
    await app?.close();
    await s?.close();
  });

  test('the sitemap files over 50,000 URLs or the cap are listed with their URLs and size', async () => {
    const { id, findings } = await crawlFindings(t, user, {
      url: `${s.origin}/`,
      mode: 'sitemap',
      max_pages: 3,
    });
    const o = s.origin;
    // the batch kept every file it read, with its entries and uncompressed bytes
    const files = JSON.parse((await findSitemapFiles(t.database.db, id))!) as {
      url: string;
      urls: number;
      bytes: number;
      truncated?: true;
    }[];
    assert.deepEqual(
      files.map((f) => [f.url, f.urls, f.truncated ?? false]),
      [
        [`${o}/sitemap-index.xml`, 3, false],
        [`${o}/small.xml`, 3, false],
        [`${o}/huge.xml`, files[2]!.urls, true],
        [`${o}/big.xml`, BIG_URLS, false],
      ],
    );
    assert.equal(files[2]!.bytes, 5 * 1024 * 1024);
    const bigBytes = Buffer.byteLength(
      `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>`,
    );
    assert.ok(files[3]!.bytes > bigBytes + BIG_URLS * 20, String(files[3]!.bytes));

    const f = findings.find((x) => x.id === 'sitemap_too_large');
    assert.ok(f, 'sitemap_too_large');
    assert.equal(f.priority, 'medium');
    assert.deepEqual(
      f.pages.map((p) => p.url),
      [`${o}/huge.xml`, `${o}/big.xml`],
    );
    assert.match(f.pages[0]!.detail!, /^over 5\.0 MB uncompressed, the most Pagegrade reads of a sitemap/);
    assert.match(
      f.pages[1]!.detail!,
      /^50,001 URLs, \d+\.\d MB uncompressed \(the limits: 50,000 URLs, 50 MB\)$/,
    );

    // a batch made before the files were kept has none: the rule finds nothing
    await t.database.db.updateTable('batches').set({ sitemap_files: null }).where('id', '=', id).execute();
    const b = (await findBatch(t.database.db, id, null))!;
    const again = await analyseBatch(t.database.db, b, new Date());
    assert.deepEqual(again.findings.find((x) => x.id === 'sitemap_too_large')!.pages, []);
  });

  test('a list batch reads no sitemap: none kept, nothing found', async () => {
    const { id, findings } = await crawlFindings(t, user, {
      url: `${s.origin}/`,
      mode: 'list',
      urls: [`${s.origin}/`, `${s.origin}/a`],
    });
    assert.equal(await findSitemapFiles(t.database.db, id), null);
    const f = findings.find((x) => x.id === 'sitemap_too_large');
    assert.deepEqual(f?.pages, []);
  });
});
