// Benchmark: one view of a large finished batch's page (docs/sites.md, "On the dashboard") —
// before, every page of the batch read and parsed, then sorted and sliced in memory
// (services.batches.results, what the batch page did); after, one page of the table read by
// the database (services.batches.view). Time (median of the runs) and the heap the view holds.
//
//   npx tsx --expose-gc bench/batch-view.ts [--pages 10000] [--runs 7]
//
// A temporary SQLite file (DATABASE_URL=postgres://… to use PostgreSQL instead), a finished
// batch whose pages are audited pages with realistic facts (20 links, 8 failed checks each).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { analyze } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import { createDb, migrate } from '../src/store/database.js';
import { createServices } from '../src/services/index.js';
import { embeddedQueue } from '../src/jobs/index.js';

const { values: args } = parseArgs({
  options: { pages: { type: 'string', default: '10000' }, runs: { type: 'string', default: '7' } },
});
const N = Number(args.pages);
const RUNS = Number(args.runs);

const dir = mkdtempSync(join(tmpdir(), 'pagegrade-batch-view-'));
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(dir, 'bench.db')}`;
const handle = createDb(databaseUrl);
const db = handle.db;
await migrate(db);
const config = configFromEnv({ DATABASE_URL: databaseUrl, PAGEGRADE_BATCH_MAX_PAGES: '100000' });
const services = createServices({ db, queue: embeddedQueue(db), analyze, config });
const { organization: owner } = await services.users.create(`bench-${Date.now()}`);

const origin = 'https://bench.example';
const now = new Date().toISOString();
const facts = (i: number) =>
  JSON.stringify({
    title: `Page ${i}`,
    description: `About page ${i}`,
    canonical: null,
    hreflang: [],
    noindex: false,
    links: Array.from({ length: 20 }, (_, k) => `${origin}/p/${(i * 31 + k * 7) % N}`),
    nofollow: [],
    redirected: false,
    result: i % 3 === 0 ? 'good' : i % 3 === 1 ? 'decent' : 'bad',
    score: 40 + (i % 60),
    failed: Array.from({ length: 8 }, (_, k) => ({
      id: `check_${k}`,
      priority: 'medium',
      title: `A check that failed, number ${k}`,
    })),
    totalMs: 100 + (i % 400),
    htmlBytes: 14_000 + i,
  });
const { id: batchId } = await db
  .insertInto('batches')
  .values({
    org_id: owner.id,
    mode: 'crawl',
    url: `${origin}/`,
    project: 'bench.example',
    options: JSON.stringify({ maxPages: N, maxDepth: 10, include: [], exclude: [], privacy: 0 }),
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
for (let i = 0; i < N; i += 500) {
  const rows = Array.from({ length: Math.min(500, N - i) }, (_, k) => ({
    batch_id: batchId,
    url: `${origin}/p/${i + k}`,
    depth: 1,
    state: 'done',
    status_code: 200,
    facts: facts(i + k),
    created_at: now,
    updated_at: now,
  }));
  await db.insertInto('batch_pages').values(rows).execute();
}

// the statistics a live database has (autovacuum's ANALYZE), not a fresh table's none
if (databaseUrl.startsWith('postgres')) await sql`ANALYZE batch_pages`.execute(db);

const gc = (globalThis as { gc?: () => void }).gc;
async function measure(name: string, view: () => Promise<unknown>) {
  const times: number[] = [];
  let held = 0;
  for (let r = 0; r < RUNS; r++) {
    gc?.();
    const before = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const result = await view();
    times.push(performance.now() - t0);
    // what the view holds at its end (the rows it read), before it is dropped
    held = Math.max(held, process.memoryUsage().heapUsed - before);
    void result;
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  console.log(
    `${name.padEnd(44)} median ${median.toFixed(1).padStart(8)} ms   heap held ${(held / 1048576).toFixed(1).padStart(6)} MB`,
  );
}

console.log(`a finished batch of ${N} audited pages, ${databaseUrl.split(':')[0]}, ${RUNS} runs each`);
await measure('before: every page read, sorted in memory', async () => {
  const { pages } = await services.batches.results(owner.id, batchId);
  return [...pages].sort((a, b) => (b.facts?.score ?? 0) - (a.facts?.score ?? 0)).slice(25, 50);
});
await measure('after: page 2 by score, read by the database', () =>
  services.batches.view(owner.id, batchId, { sortBy: 'score', sort: 'desc', page: 2 }),
);
await measure('after: page 2 in the order found', () => services.batches.view(owner.id, batchId, { page: 2 }));
await measure('after: the last page in the order found', () =>
  services.batches.view(owner.id, batchId, { page: Math.ceil(N / 25) }),
);
await handle.close();
rmSync(dir, { recursive: true, force: true });
