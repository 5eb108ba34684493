// Benchmark: the diff of two 100,000-page crawls of a project (docs/sites.md, "Comparing
// crawls"), as `GET /api/v1/batches/{id}/diff?from=` computes it: both batches' pages read
// from the database in chunks, their digests compared. Time (wall and CPU), and the process's
// RSS and heap over the idle process (sampled every 20 ms while it runs). Target: ≤ 10 s and
// ≤ 150 MB.
//
//   npx tsx --expose-gc bench/crawl-diff.ts [--pages 100000] [--no-digest] [--extract]
//
// Each audited page gets its digest (batch_pages.digest, as the page job writes it);
// --no-digest seeds none, as for batches made before the column (the diff then reads facts).
// --extract gives both batches two custom extractors (a price and a product's tags, `all`) and
// each page its values (batch_pages.extracted), the second crawl another price on 1 % of its
// pages: the diff reads the values with the pages (docs/sites.md, "Comparing crawls").
//
// A temporary SQLite file (DATABASE_URL=postgres://… for PostgreSQL). Two finished batches of
// the same project with realistic facts (20 links and 8 failed checks a page); the second
// crawl differs from the first on 4 % of its pages: 1 % removed, 1 % added, 1 % with another
// title, 1 % with one more failed check.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { analyze } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import { factsDigest } from '../src/crawl/diff.js';
import { createDb, migrate } from '../src/store/database.js';
import { createServices } from '../src/services/index.js';
import { embeddedQueue } from '../src/jobs/index.js';

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '100000' },
    'no-digest': { type: 'boolean', default: false },
    extract: { type: 'boolean', default: false },
  },
});
const withDigest = !args['no-digest'];
const withExtract = args.extract;
const extractors = [
  { name: 'price', css: '.price' },
  { name: 'tags', css: 'a[rel=tag]', all: true },
];
const extracted = (i: number, second: boolean) =>
  JSON.stringify({
    price: `€${(10 + (i % 90)).toFixed(2)}${second && i % 100 === 3 ? ' (sale)' : ''}`,
    tags: [`tag-${i % 7}`, `tag-${i % 11}`, `category ${i % 13}`],
  });
const N = Number(args.pages);
const dir = mkdtempSync(join(tmpdir(), 'pagegrade-crawl-diff-'));
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(dir, 'bench.db')}`;
const handle = createDb(databaseUrl);
const db = handle.db;
await migrate(db);
const config = configFromEnv({ DATABASE_URL: databaseUrl, PAGEGRADE_BATCH_MAX_PAGES: '100000' });
const services = createServices({ db, queue: embeddedQueue(db), analyze, config });
const { organization: owner } = await services.users.create(`bench-${Date.now()}`);

const origin = 'https://bench.example';
const now = new Date().toISOString();
const facts = (i: number, second: boolean) => ({
  title: second && i % 100 === 1 ? `Page ${i}, renamed` : `Page ${i}`,
  description: `About page ${i}`,
  canonical: null,
  hreflang: [],
  noindex: false,
  links: Array.from({ length: 20 }, (_, k) => `${origin}/p/${(i * 31 + k * 7) % N}`),
  nofollow: [],
  redirected: false,
  result: (i % 3 === 0 ? 'good' : i % 3 === 1 ? 'decent' : 'bad') as 'good' | 'decent' | 'bad',
  score: 40 + (i % 60),
  failed: Array.from({ length: second && i % 100 === 2 ? 9 : 8 }, (_, k) => ({
    id: `check_${k}`,
    priority: 'medium' as const,
    title: `A check that failed, number ${k}`,
  })),
  totalMs: 100 + (i % 400),
  htmlBytes: 14_000 + i,
});

async function seed(second: boolean): Promise<number> {
  const { id } = await db
    .insertInto('batches')
    .values({
      org_id: owner.id,
      mode: 'crawl',
      url: `${origin}/`,
      project: 'bench.example',
      options: JSON.stringify({
        maxPages: N,
        maxDepth: 10,
        include: [],
        exclude: [],
        privacy: 0,
        ...(withExtract ? { extractors } : {}),
      }),
      status: 'done',
      discovered: N,
      audited: N,
      findings: '[]',
      created_at: now,
      updated_at: now,
      started_at: now,
      finished_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // the second crawl: page 0, 100, 200 … gone; N … N + N/100 - 1 new
  const pages = second
    ? [
        ...Array.from({ length: N }, (_, i) => i).filter((i) => i % 100 !== 0),
        ...Array.from({ length: N / 100 }, (_, k) => N + k),
      ]
    : Array.from({ length: N }, (_, i) => i);
  for (let i = 0; i < pages.length; i += 500) {
    const rows = pages.slice(i, i + 500).map((p) => {
      const f = facts(p, second);
      return {
        batch_id: id,
        url: `${origin}/p/${p}`,
        depth: 1,
        state: 'done',
        status_code: 200,
        facts: JSON.stringify(f),
        digest: withDigest ? factsDigest(f) : null,
        extracted: withExtract ? extracted(p, second) : null,
        created_at: now,
        updated_at: now,
      };
    });
    await db.insertInto('batch_pages').values(rows).execute();
  }
  return id;
}
const first = await seed(false);
const second = await seed(true);
if (databaseUrl.startsWith('postgres')) await sql`ANALYZE batch_pages`.execute(db);

const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const idle = process.memoryUsage();
let peakRss = idle.rss;
let peakHeap = idle.heapUsed;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 20);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const diff = await services.batches.diff(owner.id, second, first);
const ms = performance.now() - t0;
// the process's CPU time (user + system): what the diff costs, less bent by a loaded machine
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000;
clearInterval(sampler);
const m = process.memoryUsage();
peakRss = Math.max(peakRss, m.rss);
peakHeap = Math.max(peakHeap, m.heapUsed);
// what stays once garbage is collected, the diff still held
gc?.();
const retained = process.memoryUsage().heapUsed - idle.heapUsed;
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
console.log(
  `${N} pages against ${N}, ${databaseUrl.split(':')[0]}, ${withDigest ? 'digests' : 'no digests (facts read)'}${withExtract ? ', 2 extractors' : ''}: ${(ms / 1000).toFixed(1)} s (CPU ${(cpuMs / 1000).toFixed(1)} s); peak RSS ${mb(peakRss - idle.rss)} and heap ${mb(peakHeap - idle.heapUsed)} over the idle process (${mb(idle.rss)} RSS idle; ${mb(retained)} of heap kept after a collection, the diff held)`,
);
console.log(`summary: ${JSON.stringify(diff.summary)}`);
await handle.close();
rmSync(dir, { recursive: true, force: true });
