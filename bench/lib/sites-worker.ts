// The measured process of bench/sites.ts (started with fork, one per scenario, so that each peak
// RSS is its own): the real services and the embedded job engine's workers (as `npm start` runs
// them) on a fresh SQLite file, auditing a batch of the loopback site; or, as the baseline,
// analyze() called directly on the same pages with the same concurrency (no batch, no store).
//
// Environment: SITES_ORIGIN, SITES_PAGES, SITES_MODE (batch | direct), SITES_DELAY_MS and
// SITES_CONCURRENCY (PAGEGRADE_CRAWL_DELAY_MS / PAGEGRADE_CRAWL_CONCURRENCY for batches).
// Sends {type:'result', pages, failed, ms, maxRssKb} and exits.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { analyze } from '../../src/analyzer/index.js';
import { createJobEngine } from '../../src/jobs/index.js';
import { silentLog } from '../../src/jobs/kind-tools.js';
import { jobKinds } from '../../src/jobs/kinds/index.js';
import { createServices } from '../../src/services/index.js';
import { createDb, migrate } from '../../src/store/database.js';

const origin = process.env.SITES_ORIGIN!;
const pages = Number(process.env.SITES_PAGES);
const mode = process.env.SITES_MODE;
const delayMs = Number(process.env.SITES_DELAY_MS ?? 250);
const concurrency = Number(process.env.SITES_CONCURRENCY ?? 2);
if (!origin || !process.send || !pages) {
  console.error('bench/lib/sites-worker.ts is started by bench/sites.ts');
  process.exit(2);
}
const send = (m: object) => new Promise<void>((r) => process.send!(m, () => r()));

/** the same number of audits at once as the batch workers run (batch.page: 8) */
const SLOTS = 8;

async function direct(): Promise<{ pages: number; failed: number; ms: number }> {
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: SLOTS }, async () => {
      while (next < pages) {
        const i = next++;
        await analyze(`${origin}/p/${i}`, { allowPrivateHosts: true }).catch(() => (failed += 1));
      }
    }),
  );
  return { pages, failed, ms: performance.now() - t0 };
}

async function batch(): Promise<{ pages: number; failed: number; ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'pagegrade-bench-sites-'));
  const handle = createDb(`sqlite:${join(dir, 'pagegrade.db')}`);
  try {
    await migrate(handle.db);
    const engine = await createJobEngine(
      { queueEngine: 'embedded', redisUrl: null, redisPrefix: '', jobPollMs: 500 },
      { db: handle.db, kinds: jobKinds },
    );
    const services = createServices({
      db: handle.db,
      analyze,
      queue: engine.queue,
      config: {
        allowPrivateHosts: true,
        fetchTimeoutMs: 10_000,
        fetchMaxBytes: 5 * 1024 * 1024,
        userAgent: null,
        sessionSecret: 'bench-sites-session-secret-bench-sites',
        bootstrapKey: null,
        crawlDelayMs: delayMs,
        crawlConcurrency: concurrency,
      },
    });
    const workers = engine.startWorkers({ deps: { services, queue: engine.queue, log: silentLog } });
    const { user } = await services.users.create('bench');
    const t0 = performance.now();
    const created = await services.batches.create(user.id, {
      url: `${origin}/sitemap.xml`,
      mode: 'sitemap',
      maxPages: pages,
    });
    let b = created;
    while (!['done', 'cancelled', 'failed'].includes(b.status)) {
      await new Promise((r) => setTimeout(r, 100));
      b = await services.batches.get(user.id, created.id);
    }
    const ms = performance.now() - t0;
    await workers.stop();
    await engine.close();
    if (b.status !== 'done') throw new Error(`the batch ended ${b.status}: ${b.error}`);
    return { pages: b.progress.audited, failed: b.progress.failed, ms };
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const result = mode === 'direct' ? await direct() : await batch();
await send({ type: 'result', ...result, maxRssKb: process.resourceUsage().maxRSS });
process.exit(0);
