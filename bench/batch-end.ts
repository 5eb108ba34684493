// Benchmark: the end of a large batch (issue 20 §7; docs/sites.md, "The end of a batch") — its
// findings, summary, issue states and the diff with the project's previous crawl, then
// batch.completed — as the worker runs it once the last page is done. Time, the process's peak
// RSS (getrusage) and the heap over the idle process (sampled every 20 ms).
//
//   npx tsx --expose-gc bench/batch-end.ts [--pages 100000]
//   PAGEGRADE_WORKER_HEAP_GROWTH=0 npx tsx --expose-gc bench/batch-end.ts   # V8's own heap growth
//
// A temporary SQLite file (DATABASE_URL=postgres://… for PostgreSQL). A project's previous
// finished crawl of N pages, and a running batch of N pages of which all but one are done with
// realistic facts (20 links, 8 failed checks, a MinHash signature, an h1; 5 % canonicalised,
// 10 % with hreflang); the last page's job gives up (services.batches.pageGaveUp), which closes
// it and lets the frontier end the batch: in that transaction (before the batch.end job), or
// by enqueuing batch.end, which the bench then runs (services.batches.end).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { analyze } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import * as diffModule from '../src/crawl/diff.js';
import { createDb, migrate } from '../src/store/database.js';
import { createServices } from '../src/services/index.js';
import { embeddedQueue } from '../src/jobs/index.js';
import { prng } from './lib/corpus.js';

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '100000' } } });
const N = Number(args.pages);
const dir = mkdtempSync(join(tmpdir(), 'pagegrade-batch-end-'));
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(dir, 'bench.db')}`;
const handle = createDb(databaseUrl);
const db = handle.db;
await migrate(db);
const config = configFromEnv({
  DATABASE_URL: databaseUrl,
  PAGEGRADE_BATCH_MAX_PAGES: '100000',
  PAGEGRADE_WORKER_HEAP_GROWTH: process.env.PAGEGRADE_WORKER_HEAP_GROWTH,
});
// the V8 heap as a process running the workers sets it at its start (PAGEGRADE_WORKER_HEAP_GROWTH,
// src/jobs/heap.ts; =0: V8's own policy); a tree before that setting leaves V8's own
const heap = (await import('../src/jobs/heap.js').catch(() => null)) as {
  setHeapGrowth?(percent: number): void;
  setWorkerHeapGrowth?(percent: number): void; // its name before 2026-11-29
} | null;
(heap?.setHeapGrowth ?? heap?.setWorkerHeapGrowth)?.((config as { workerHeapGrowth?: number }).workerHeapGrowth ?? 0);
const services = createServices({ db, queue: embeddedQueue(db), analyze, config });
const { organization: owner } = await services.users.create(`bench-${Date.now()}`);
// the digest column (and its writer) exist from 2026-12-02: a tree before it seeds none
const factsDigest = (diffModule as { factsDigest?: (f: object) => string }).factsDigest;

const origin = 'https://bench.example';
const url = (i: number) => `${origin}/p/${i}`;
const now = new Date().toISOString();
/** a seeded PRNG (mulberry32): the same site every run */
const rnd = prng(42);
const pick = (n: number) => Math.floor(rnd() * n);
const hex = (bytes: number) => {
  let s = '';
  for (let i = 0; i < bytes; i++) s += pick(256).toString(16).padStart(2, '0');
  return s;
};
const facts = (i: number, second: boolean) => ({
  title: rnd() < 0.02 ? 'Shared title' : second && i % 100 === 1 ? `Page ${i}, renamed` : `Page ${i}`,
  description: `About page ${i}`,
  canonical: rnd() < 0.05 ? url(pick(N)) : url(i),
  hreflang: rnd() < 0.1 ? [{ lang: 'en', url: url(i) }, { lang: 'de', url: url(pick(N)) }] : [],
  noindex: rnd() < 0.02,
  links: Array.from({ length: 20 }, () => url(pick(N))),
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
  mainWords: 100 + pick(900),
  mainHash: hex(8),
  minhash: hex(128),
  h1: [`Heading ${i}`],
});

async function seedBatch(second: boolean): Promise<{ id: number; lastPage: number }> {
  const { id } = await db
    .insertInto('batches')
    .values({
      org_id: owner.id,
      mode: 'crawl',
      url: `${origin}/`,
      project: 'bench.example',
      options: JSON.stringify({ maxPages: N, maxDepth: 10, include: [], exclude: [], privacy: 0 }),
      status: second ? 'running' : 'done',
      discovered: N,
      audited: second ? N - 1 : N,
      findings: second ? null : '[]',
      created_at: now,
      updated_at: now,
      started_at: now,
      finished_at: second ? null : now,
      deadline_at: Date.now() + 3_600_000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (let i = 0; i < N; i += 500) {
    const rows = Array.from({ length: Math.min(500, N - i) }, (_, k) => {
      const p = i + k;
      const f = facts(p, second);
      const last = second && p === N - 1;
      return {
        batch_id: id,
        url: url(p),
        depth: 1,
        state: last ? 'fetching' : 'done',
        status_code: last ? null : 200,
        canonical_key: f.canonical !== url(p) ? f.canonical : null,
        facts: last ? null : JSON.stringify(f),
        ...(factsDigest && !last ? { digest: factsDigest(f) } : {}),
        created_at: now,
        updated_at: now,
      };
    });
    await db.insertInto('batch_pages').values(rows).execute();
  }
  const last = await db
    .selectFrom('batch_pages')
    .select('id')
    .where('batch_id', '=', id)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return { id, lastPage: last.id };
}
await seedBatch(false);
const ending = await seedBatch(true);
if (databaseUrl.startsWith('postgres')) await sql`ANALYZE batch_pages`.execute(db);

const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const idle = process.memoryUsage();
const maxRssBefore = process.resourceUsage().maxRSS * 1024;
let peakRss = idle.rss;
let peakHeap = idle.heapUsed;
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed);
}, 20);
const t0 = performance.now();
await services.batches.pageGaveUp(ending.id, ending.lastPage, 'the bench ends the batch');
const inPageJob = performance.now() - t0;
const batches = services.batches as { end?: (id: number) => Promise<void> };
if (batches.end) await batches.end(ending.id);
const ms = performance.now() - t0;
clearInterval(sampler);
const m = process.memoryUsage();
peakRss = Math.max(peakRss, m.rss, process.resourceUsage().maxRSS * 1024);
peakHeap = Math.max(peakHeap, m.heapUsed);
const b = await services.batches.get(owner.id, ending.id);
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
console.log(
  `${N} pages, ${databaseUrl.split(':')[0]}, ${batches.end ? 'batch.end job' : 'in the last page job'}: ${(ms / 1000).toFixed(1)} s (the last page's transaction ${(inPageJob / 1000).toFixed(1)} s); peak RSS ${mb(peakRss)} (idle ${mb(idle.rss)}, the seeding's peak ${mb(maxRssBefore)}), heap +${mb(peakHeap - idle.heapUsed)} over idle`,
);
console.log(`batch ${b.status}, audited ${b.progress.audited}, summary pages ${JSON.stringify(b.summary?.pages ?? null)}`);
await handle.close();
rmSync(dir, { recursive: true, force: true });
