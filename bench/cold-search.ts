// The first (uncached) request for a search term against the million-report bench stores:
// what a user pays before the per-version total and page caches are warm.
//   npx tsx bench/cold-search.ts            (after `npm run bench -- --reports 1000000 --seed-only`)
import { performance } from 'node:perf_hooks';
import { analyze } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import { createServices } from '../src/services/index.js';
import { createDb, migrate } from '../src/store/database.js';
import { embeddedQueue } from '../src/jobs/index.js';

const stores = {
  sqlite: 'sqlite:bench/.data/bench-1000000.db',
  postgres: `${(process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test').replace(/\/[^/]*$/, '')}/pagegrade_bench_1000000`,
};
const terms = ['tomato', 'garden', 'quickpets-outdoors40', 'blog/2021'];
console.log('| store | term | total | first request ms | second request ms |');
console.log('|---|---|---:|---:|---:|');
for (const [name, url] of Object.entries(stores)) {
  const handle = await createDb(url);
  await migrate(handle.db);
  const services = createServices({ queue: embeddedQueue(handle.db), db: handle.db, analyze, config: configFromEnv({}) });
  for (const search of terms) {
    const t0 = performance.now();
    const first = await services.reports.list(1, { search });
    const t1 = performance.now();
    await services.reports.list(1, { search });
    const t2 = performance.now();
    console.log(`| ${name} | ${search} | ${first.total} | ${(t1 - t0).toFixed(0)} | ${(t2 - t1).toFixed(1)} |`);
  }
  await handle.close();
}
