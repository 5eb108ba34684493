// The link graph's storage per page (issue 21 §1: docs/sites.md "The link graph", BENCHMARKS.md
// "The link graph's storage"): a generated N-page batch (default 10,000) with 20 links a page
// written as a crawl writes them (insertPageLinks, one transaction a page) into a SQLite file;
// the bytes of batch_links, batch_link_urls and their indexes (SQLite's dbstat), per page and
// per link — beside, in the same run, the same links stored with the target's URL text in every
// row (no URL ids), the baseline the integer ids are measured against.
//
//   npx tsx bench/link-graph.ts [--pages 10000] [--links 20]
//
// A page's links: 8 site-wide navigation links (the same targets and anchors on every page),
// 10 links to other pages of the site with their own anchor text (~25 characters), 2 external
// links to a pool of 500 URLs.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { analyze } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import { createDb, migrate, withTransaction } from '../src/store/database.js';
import { insertPageLinks, type LinkInput } from '../src/store/batch-links.repository.js';
import { createServices } from '../src/services/index.js';
import { embeddedQueue } from '../src/jobs/index.js';

const { values: args } = parseArgs({
  options: { pages: { type: 'string', default: '10000' }, links: { type: 'string', default: '20' } },
});
const N = Number(args.pages);
const LINKS = Number(args.links);
const dir = mkdtempSync(join(tmpdir(), 'pagegrade-link-graph-'));
const file = join(dir, 'bench.db');
const databaseUrl = `sqlite:${file}`;
const handle = createDb(databaseUrl);
const db = handle.db;
await migrate(db);
const config = configFromEnv({ DATABASE_URL: databaseUrl, PAGEGRADE_BATCH_MAX_PAGES: '100000' });
const services = createServices({ db, queue: embeddedQueue(db), analyze, config });
const { organization: owner } = await services.users.create(`bench-${Date.now()}`);
const origin = 'https://www.bench-site.example';
const now = new Date().toISOString();
const url = (i: number) => `${origin}/section-${i % 40}/an-article-about-topic-${i}`;

const { id: batchId } = await db
  .insertInto('batches')
  .values({
    org_id: owner.id,
    mode: 'crawl',
    url: `${origin}/`,
    project: 'bench-site.example',
    options: JSON.stringify({ maxPages: N, maxDepth: 10, include: [], exclude: [], privacy: 0 }),
    status: 'done',
    discovered: N,
    audited: N,
    created_at: now,
    updated_at: now,
  })
  .returning('id')
  .executeTakeFirstOrThrow();
const pageIds: number[] = [];
for (let i = 0; i < N; i += 500) {
  const rows = await db
    .insertInto('batch_pages')
    .values(
      Array.from({ length: Math.min(500, N - i) }, (_, k) => ({
        batch_id: batchId,
        url: url(i + k),
        depth: 1,
        state: 'done',
        status_code: 200,
        created_at: now,
        updated_at: now,
      })),
    )
    .returning('id')
    .execute();
  pageIds.push(...rows.map((r) => r.id));
}

const NAV = ['Home', 'Products', 'Pricing', 'Blog', 'About us', 'Careers', 'Contact', 'Support'];
function linksOf(i: number): LinkInput[] {
  const out: LinkInput[] = [];
  for (let k = 0; k < LINKS; k++) {
    if (k < 8) out.push({ url: url(k), anchor: NAV[k]!, rel: null, nofollow: false, internal: true });
    else if (k < LINKS - 2) {
      const j = (i * 7919 + k * 104_729) % N;
      out.push({ url: url(j), anchor: `Read about topic ${j} here`, rel: null, nofollow: false, internal: true });
    } else
      out.push({
        url: `https://elsewhere-${(i + k) % 50}.example/reference/${(i * 31 + k) % 500}`,
        anchor: 'a source',
        rel: 'noopener',
        nofollow: false,
        internal: false,
      });
  }
  return out;
}

const t0 = performance.now();
for (let i = 0; i < N; i++)
  await withTransaction(db, (trx) => insertPageLinks(trx, batchId, pageIds[i]!, linksOf(i)));
const writeMs = performance.now() - t0;
// the same number of transactions that write one page row's timestamp only: what a page's own
// transaction costs without its links (measured in the same run)
const t1 = performance.now();
for (let i = 0; i < N; i++)
  await withTransaction(db, (trx) =>
    trx.updateTable('batch_pages').set({ updated_at: now }).where('id', '=', pageIds[i]!).execute(),
  );
const bareMs = performance.now() - t1;

// the baseline: the same rows with the target URL's text in each (no batch_link_urls)
await sql`CREATE TABLE links_plain (
  batch_id INTEGER NOT NULL, source_id INTEGER NOT NULL, position INTEGER NOT NULL, target TEXT NOT NULL,
  anchor TEXT NOT NULL, rel TEXT, nofollow INTEGER NOT NULL, internal INTEGER NOT NULL,
  PRIMARY KEY (batch_id, source_id, position)) WITHOUT ROWID`.execute(db);
await sql`CREATE INDEX links_plain_target ON links_plain (batch_id, target)`.execute(db);
await sql`INSERT INTO links_plain SELECT l.batch_id, l.source_id, l.position, u.url, l.anchor, l.rel, l.nofollow, l.internal
  FROM batch_links l JOIN batch_link_urls u ON u.id = l.target_id ORDER BY l.batch_id, l.source_id, l.position`.execute(db);

const sizes = await sql<{ name: string; bytes: number }>`SELECT name, SUM(pgsize) AS bytes FROM dbstat
  WHERE name IN ('batch_links', 'batch_links_target', 'batch_link_urls', 'batch_link_urls_batch_url', 'links_plain', 'links_plain_target')
  GROUP BY name`.execute(db);
const size = (name: string) => Number(sizes.rows.find((r) => r.name === name)?.bytes ?? 0);
const graph =
  size('batch_links') + size('batch_links_target') + size('batch_link_urls') + size('batch_link_urls_batch_url');
const plain = size('links_plain') + size('links_plain_target');
const urls = Number(
  (await db.selectFrom('batch_link_urls').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
);
const kb = (b: number) => `${(b / 1024).toFixed(0)} KB`;
console.log(`${N} pages, ${LINKS} links a page (${N * LINKS} links, ${urls} distinct URLs); SQLite file ${kb(statSync(file).size)}`);
for (const n of ['batch_links', 'batch_links_target', 'batch_link_urls', 'batch_link_urls_batch_url'])
  console.log(`  ${n.padEnd(28)} ${kb(size(n))}`);
console.log(`link graph:   ${(graph / N).toFixed(0)} bytes a page, ${(graph / (N * LINKS)).toFixed(1)} bytes a link`);
console.log(`URL in rows:  ${(plain / N).toFixed(0)} bytes a page (baseline, same run); graph / baseline ${(graph / plain).toFixed(2)}`);
console.log(
  `writing: ${(writeMs / N).toFixed(2)} ms a page (a transaction each, ${LINKS} links); a transaction updating the page row alone ${(bareMs / N).toFixed(2)} ms`,
);
await handle.close();
rmSync(dir, { recursive: true, force: true });
