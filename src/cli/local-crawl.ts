// A crawl without a server, shared by `pagegrade crawl` (run-crawl.ts) and `pagegrade ci`
// (ci/targets.ts): a database in memory, the services and the embedded job engine in this
// process — exactly what the server would run —, and the batch's failure in words.
import { analyze } from '../analyzer/index.js';
import type { Config } from '../config.js';
import { createJobEngine, type JobEngine, type Workers } from '../jobs/index.js';
import { silentLog } from '../jobs/kind-tools.js';
import { jobKinds } from '../jobs/kinds/index.js';
import type { Renderer } from '../render/index.js';
import type { Batch, BatchPageResult } from '../services/batches/types.js';
import { createServices } from '../services/index.js';
import type { Services } from '../services/types.js';
import { createDb, migrate } from '../store/database.js';

export interface LocalCrawl {
  services: Services;
  /** the throwaway owner of the batch */
  userId: number;
  /** starts the job workers (stopped by close, or earlier by the caller) */
  startWorkers(): Workers;
  /** stops the workers and the engine and drops the database (the renderer is the caller's) */
  close(): Promise<void>;
}

export async function openLocalCrawl(
  config: Config,
  renderer: Renderer | null,
  owner: string,
): Promise<LocalCrawl> {
  const handle = createDb('sqlite::memory:');
  let engine: JobEngine | null = null;
  let workers: Workers | null = null;
  const close = async () => {
    // (stop is idempotent: a caller that stopped the workers already waits for nothing)
    await workers?.stop().catch(() => {});
    await engine?.close().catch(() => {});
    await handle.close().catch(() => {});
  };
  try {
    await migrate(handle.db);
    const started = await createJobEngine(
      {
        queueEngine: 'embedded',
        redisUrl: null,
        redisPrefix: config.redisPrefix,
        jobPollMs: 100,
        // the batch's end runs here too: the V8 heap's growth as a worker sets it (src/jobs/heap.ts)
        workerHeapGrowth: config.workerHeapGrowth,
      },
      { db: handle.db, kinds: jobKinds },
    );
    engine = started;
    const services = createServices({
      db: handle.db,
      analyze,
      config,
      queue: started.queue,
      ...(renderer ? { renderer } : {}),
    });
    const { user } = await services.users.create(owner);
    return {
      services,
      userId: user.id,
      startWorkers: () =>
        (workers = started.startWorkers({ deps: { services, queue: started.queue, log: silentLog } })),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Why the crawl failed, or null: the batch says why; in crawl mode a start page that could not
 * be fetched or answered an error fails it too (nothing else is reachable from it).
 */
export function crawlFailure(batch: Batch, pages: BatchPageResult[], crawlMode: boolean): string | null {
  if (batch.status === 'failed') return batch.error ?? 'the crawl failed';
  const start = pages.find((p) => p.url === batch.url);
  return crawlMode && start?.state === 'failed'
    ? `the start page ${start.url}: ${start.error ?? 'could not be audited'}`
    : null;
}
