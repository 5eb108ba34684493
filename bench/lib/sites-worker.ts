// The measured process of bench/sites.ts (started with fork, one per scenario, so that each peak
// RSS is its own): the real services and the embedded job engine's workers (as `npm start` runs
// them) on a fresh SQLite file, auditing a batch of the loopback site; or, as the baseline,
// analyze() called directly on the same pages with the same concurrency (no batch, no store).
//
// Environment: SITES_ROOT (the file URL of dist/ or src/ to import the app from), SITES_ORIGIN,
// SITES_PAGES, SITES_MODE (batch | direct), SITES_DELAY_MS and SITES_CONCURRENCY
// (PAGEGRADE_CRAWL_DELAY_MS / PAGEGRADE_CRAWL_CONCURRENCY for batches), SITES_BATCH_MODE
// (sitemap, the default, from SITES_ORIGIN/sitemap.xml; or crawl, from SITES_ORIGIN/); SITES_MEM_TRACE=1 prints
// process.memoryUsage() every 5 s to stderr. Sends {type:'result', pages, failed, ms, cpuMs, maxRssKb}
// and exits. bench/sites.ts runs this file as plain JavaScript under `node` when dist/ is current
// (no tsx loader in the measured process: it alone holds ~45 MB), as `npm start` runs, with the
// bench/lib files it imports bundled in (bench/lib/worker-script.ts). Its services and workers
// are bench/lib/bench-services.ts's, as bench/crawl-load.ts's are.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as Analyzer from '../../src/analyzer/index.js';
import type * as Jobs from '../../src/jobs/index.js';
import type * as KindTools from '../../src/jobs/kind-tools.js';
import type * as Kinds from '../../src/jobs/kinds/index.js';
import type * as ServicesModule from '../../src/services/index.js';
import type * as Database from '../../src/store/database.js';
import { startBenchServices } from './bench-services.js';

// the compiled build when it is current (as `npm start` runs it), else the sources through tsx
const root = process.env.SITES_ROOT!.replace(/\/$/, '');
const [
  { analyze },
  { createJobEngine },
  { silentLog },
  { jobKinds },
  { createServices },
  { createDb, migrate },
] = (await Promise.all([
  import(`${root}/analyzer/index.js`),
  import(`${root}/jobs/index.js`),
  import(`${root}/jobs/kind-tools.js`),
  import(`${root}/jobs/kinds/index.js`),
  import(`${root}/services/index.js`),
  import(`${root}/store/database.js`),
])) as [typeof Analyzer, typeof Jobs, typeof KindTools, typeof Kinds, typeof ServicesModule, typeof Database];
if (process.env.SITES_SAY_BUILD) console.error(`sites-worker: ${root}`);

const origin = process.env.SITES_ORIGIN!;
const pages = Number(process.env.SITES_PAGES);
const mode = process.env.SITES_MODE;
const delayMs = Number(process.env.SITES_DELAY_MS ?? 250);
const concurrency = Number(process.env.SITES_CONCURRENCY ?? 2);
const crawlMode = process.env.SITES_BATCH_MODE === 'crawl';
if (!origin || !process.send || !pages) {
  console.error('bench/lib/sites-worker.ts is started by bench/sites.ts');
  process.exit(2);
}
if (process.env.SITES_MEM_TRACE) {
  const t0 = performance.now();
  setInterval(() => {
    const m = process.memoryUsage();
    const f = (n: number) => `${Math.round(n / 1048576)}`;
    console.error(
      `mem ${((performance.now() - t0) / 1000).toFixed(0)} s: rss ${f(m.rss)} heapTotal ${f(m.heapTotal)} heapUsed ${f(m.heapUsed)} external ${f(m.external)} arrayBuffers ${f(m.arrayBuffers)} MB`,
    );
  }, 5000).unref();
}
const send = (m: object) => new Promise<void>((r) => process.send!(m, () => r()));

/** the same number of audits at once as the batch workers run (batch.page: 8) */
const SLOTS = 8;

/** CPU time (user + system) since `from`, ms */
const cpuSince = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
};

async function direct(): Promise<{ pages: number; failed: number; ms: number; cpuMs: number }> {
  let next = 0;
  let failed = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: SLOTS }, async () => {
      while (next < pages) {
        const i = next++;
        await analyze(`${origin}/p/${i}`, { allowPrivateHosts: true }).catch(() => (failed += 1));
      }
    }),
  );
  return { pages, failed, ms: performance.now() - t0, cpuMs: cpuSince(c0) };
}

async function batch(): Promise<{ pages: number; failed: number; ms: number; cpuMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-bench-sites-'));
  const handle = createDb(`sqlite:${join(dir, 'pagegrade.db')}`);
  try {
    const bench = await startBenchServices(
      { analyze, createJobEngine, silentLog, jobKinds, createServices, migrate },
      {
        db: handle.db,
        engine: {
          queueEngine: 'embedded',
          redisUrl: null,
          redisPrefix: '',
          // the V8 heap's growth as a worker process sets it (src/jobs/heap.ts; =0: V8's own)
          workerHeapGrowth: Number(process.env.PAGEGRADE_WORKER_HEAP_GROWTH ?? 20),
        },
        crawlDelayMs: delayMs,
        crawlConcurrency: concurrency,
      },
    );
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const created = await bench.services.batches.create(bench.owner, {
      url: crawlMode ? `${origin}/` : `${origin}/sitemap.xml`,
      mode: crawlMode ? 'crawl' : 'sitemap',
      maxPages: pages,
    });
    const b = await bench.ended(created.id, 50);
    const ms = performance.now() - t0;
    const cpuMs = cpuSince(c0);
    await bench.stop();
    if (b.status !== 'done') throw new Error(`the batch ended ${b.status}: ${b.error}`);
    return { pages: b.progress.audited, failed: b.progress.failed, ms, cpuMs };
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const result = mode === 'direct' ? await direct() : await batch();
await send({ type: 'result', ...result, maxRssKb: process.resourceUsage().maxRSS });
process.exit(0);
