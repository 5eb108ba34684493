// The measured process of bench/sites-large.ts: the real application (buildApp over
// createServices, as src/server.ts builds it) listening on 127.0.0.1 AND the embedded job
// engine's workers (as `npm start` runs them) on a fresh SQLite file — one process, as a
// single-machine install runs. It crawls the loopback site once (`crawl` mode from its home
// page, politeness off) and reports, over IPC, the audited count as it grows, so that the
// driver can time windows of pages and load the API while it runs.
//
// SITES_ROLE `all` (the default: API and workers in one process, as `npm start`), `api` (the API
// alone, as `PAGEGRADE_WORKER=0 npm start`: it starts the crawl and follows it) or `worker` (the
// workers alone, as `pagegrade worker`, on the same SQLite file: SITES_DB).
//
// Environment: SITES_ROOT (the file URL of dist/ or src/), SITES_ORIGIN, SITES_PAGES, SITES_ROLE,
// SITES_DB. IPC out: {type:'ready', port, key} (not `worker`), {type:'progress', audited, t} every
// 250 ms, {type:'done', status, error, audited, failed, skipped, ms}, then on {type:'quit'}:
// {type:'result', maxRssKb} and exit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as Analyzer from '../../src/analyzer/index.js';
import type * as App from '../../src/app.js';
import type * as Config from '../../src/config.js';
import type * as Jobs from '../../src/jobs/index.js';
import type * as KindTools from '../../src/jobs/kind-tools.js';
import type * as Kinds from '../../src/jobs/kinds/index.js';
import type * as ServicesModule from '../../src/services/index.js';
import type * as Database from '../../src/store/database.js';

const root = process.env.SITES_ROOT!.replace(/\/$/, '');
const [
  { analyze },
  { buildApp },
  { configFromEnv },
  { createJobEngine },
  { silentLog },
  { jobKinds },
  { createServices },
  { createDb, migrate },
] = (await Promise.all([
  import(`${root}/analyzer/index.js`),
  import(`${root}/app.js`),
  import(`${root}/config.js`),
  import(`${root}/jobs/index.js`),
  import(`${root}/jobs/kind-tools.js`),
  import(`${root}/jobs/kinds/index.js`),
  import(`${root}/services/index.js`),
  import(`${root}/store/database.js`),
])) as [
  typeof Analyzer,
  typeof App,
  typeof Config,
  typeof Jobs,
  typeof KindTools,
  typeof Kinds,
  typeof ServicesModule,
  typeof Database,
];

const origin = process.env.SITES_ORIGIN!;
const pages = Number(process.env.SITES_PAGES);
if (!origin || !process.send || !pages) {
  console.error('bench/lib/sites-large-worker.ts is started by bench/sites-large.ts');
  process.exit(2);
}
const send = (m: object) => new Promise<void>((r) => process.send!(m, () => r()));

const role = process.env.SITES_ROLE ?? 'all';
const dir = process.env.SITES_DB ? null : mkdtempSync(join(tmpdir(), 'pagegrade-bench-large-'));
const config = configFromEnv({
  DATABASE_URL: `sqlite:${process.env.SITES_DB ?? join(dir!, 'pagegrade.db')}`,
  PAGEGRADE_RATE_LIMIT: '0',
  LOG_LEVEL: 'warn',
  PAGEGRADE_SESSION_SECRET: 'bench-large-session-secret-bench-large',
  PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
  PAGEGRADE_CRAWL_DELAY_MS: '0',
  PAGEGRADE_CRAWL_CONCURRENCY: '8',
  PAGEGRADE_BATCH_MAX_PAGES: String(Math.max(pages, 10_000)),
  PAGEGRADE_BATCH_TIME_BUDGET_MS: String(6 * 3600_000),
});
const handle = createDb(config.databaseUrl);
if (role !== 'worker') await migrate(handle.db);
const engine = await createJobEngine(
  // as a worker process runs them: the heap's growth from PAGEGRADE_WORKER_HEAP_GROWTH (src/jobs/heap.ts)
  {
    queueEngine: 'embedded',
    redisUrl: null,
    redisPrefix: '',
    jobPollMs: 500,
    workerHeapGrowth: config.workerHeapGrowth,
  },
  { db: handle.db, kinds: jobKinds },
);
const services = createServices({ db: handle.db, analyze, queue: engine.queue, config });
const workers =
  role === 'api' ? null : engine.startWorkers({ deps: { services, queue: engine.queue, log: silentLog } });
const app = role === 'worker' ? null : await buildApp(config, { services, healthCheck: async () => {} });

process.on('message', (m: { type?: string }) => {
  if (m?.type === 'quit') {
    void (async () => {
      await workers?.stop();
      await engine.close();
      await app?.close();
      await handle.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      await send({ type: 'result', maxRssKb: process.resourceUsage().maxRSS });
      process.exit(0);
    })();
  }
});
if (!app) {
  await send({ type: 'ready' });
  await new Promise(() => {});
}
await app!.listen({ port: 0, host: '127.0.0.1' });
const { organization: owner, key } = await services.users.create('bench');
await send({ type: 'ready', port: (app!.server.address() as { port: number }).port, key: key.key });

const t0 = performance.now();
const created = await services.batches.create(owner.id, {
  url: `${origin}/`,
  mode: 'crawl',
  maxPages: pages,
  maxDepth: 100,
});
let b = created;
while (!['done', 'cancelled', 'failed'].includes(b.status)) {
  await new Promise((r) => setTimeout(r, 250));
  b = await services.batches.get(owner.id, created.id);
  await send({
    type: 'progress',
    audited: b.progress.audited,
    discovered: b.progress.discovered,
    t: performance.now() - t0,
  });
}
await send({
  type: 'done',
  status: b.status,
  error: b.error,
  audited: b.progress.audited,
  failed: b.progress.failed,
  skipped: b.progress.skipped,
  ms: performance.now() - t0,
});
