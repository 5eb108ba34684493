// Not a test: times every list shape over a large store (docs/store.md has the figures).
//   node --import tsx test/store/million.bench.ts sqlite:/tmp/pagegrade-big.db [rows=1000000]
//   node --import tsx test/store/million.bench.ts postgres://postgres@127.0.0.1:5432/<empty db> [rows]
// Seeds the rows in bulk on an empty database (90% for one user, 10% for another, 5,000
// projects), runs ANALYZE, then prints the mean of 5 calls of each list through the services.
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { analyze } from '../../src/analyzer/index.js';
import { createServices } from '../../src/services/index.js';
import { type ListProjectsQuery, type ListReportsQuery } from '../../src/contract/lists.js';
import { createDb, migrate, sqlitePath } from '../../src/store/database.js';
import { insertOrg } from '../../src/store/organizations.repository.js';
import { testServicesConfig } from '../helpers/config.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const databaseUrl = process.argv[2];
const N = Number(process.argv[3] ?? 1_000_000);
if (!databaseUrl) {
  console.error('usage: node --import tsx test/store/million.bench.ts DATABASE_URL [rows]');
  process.exit(2);
}

const h = createDb(databaseUrl);
await migrate(h.db);
const counters = `UPDATE users SET
  reports_count = (SELECT count(*) FROM reports r WHERE r.user_id = users.id),
  good_count = (SELECT count(*) FROM reports r WHERE r.user_id = users.id AND result_rank = 0),
  decent_count = (SELECT count(*) FROM reports r WHERE r.user_id = users.id AND result_rank = 1),
  bad_count = (SELECT count(*) FROM reports r WHERE r.user_id = users.id AND result_rank = 2),
  projects_count = (SELECT count(*) FROM projects p WHERE p.user_id = users.id)`;

let user = (await h.db.selectFrom('organizations').select('id').where('name', '=', 'big').executeTakeFirst())?.id;
if (user === undefined) {
  user = (await insertOrg(h.db, 'big', new Date().toISOString())).id;
  const other = (await insertOrg(h.db, 'other', new Date().toISOString())).id;
  const t0 = Date.now();
  const cats = JSON.stringify({ seo: { score: 50, passed: 1, failed: 1 } });
  if (h.dialect === 'sqlite') {
    // one bulk transaction on a second connection, before the services use the first
    const raw = new SqliteDatabase(sqlitePath(databaseUrl));
    const insert =
      raw.prepare(`INSERT INTO reports (user_id, url, final_url, project, result, result_rank, score,
      privacy, categories, results, page, generated_at, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, 50, 0, ?, '{}', '{}', ?, ?, ?)`);
    const results = ['good', 'decent', 'bad'];
    raw.transaction(() => {
      for (let i = 0; i < N; i++) {
        const host = `site${i % 5000}.example`;
        const at = new Date(Date.UTC(2025, 0, 1) + (i % 100_000) * 60_000).toISOString();
        const url = `https://${host}/page/${i}?q=${(i * 7919) % 100_003}`;
        insert.run(i % 10 === 0 ? other : user, url, url, host, results[i % 3], i % 3, cats, at, at, at);
      }
      raw.exec(`INSERT INTO projects (user_id, name, created_at, reports_count)
        SELECT user_id, project, min(created_at), count(*) FROM reports GROUP BY user_id, project`);
      raw.exec(counters);
    })();
    raw.exec('ANALYZE');
    raw.close();
  } else {
    await sql
      .raw(
        `INSERT INTO reports (user_id, url, final_url, project, result, result_rank, score, privacy,
        categories, results, page, generated_at, created_at, updated_at)
      SELECT CASE WHEN i % 10 = 0 THEN ${other} ELSE ${user} END,
        'https://site' || (i % 5000) || '.example/page/' || i || '?q=' || ((i::bigint * 7919) % 100003),
        'https://site' || (i % 5000) || '.example/', 'site' || (i % 5000) || '.example',
        (ARRAY['good', 'decent', 'bad'])[i % 3 + 1], i % 3, 50, 0, '${cats}', '{}', '{}',
        timestamptz '2025-01-01' + (i % 100000) * interval '1 minute', now(), now()
      FROM generate_series(0, ${N - 1}) i`,
      )
      .execute(h.db);
    await sql
      .raw(
        `INSERT INTO projects (user_id, name, created_at, reports_count)
        SELECT user_id, project, min(created_at), count(*) FROM reports GROUP BY user_id, project`,
      )
      .execute(h.db);
    await sql.raw(counters).execute(h.db);
    await sql.raw('ANALYZE').execute(h.db);
  }
  console.log(`seeded ${N} reports in ${Date.now() - t0} ms`);
}

const config = testServicesConfig({ allowPrivateHosts: false, fetchTimeoutMs: 1000, fetchMaxBytes: 1024 });
const services = createServices({ queue: embeddedQueue(h.db), db: h.db, analyze, config });
const reports: [string, ListReportsQuery][] = [
  ['default', {}],
  ['page 500', { page: 500 }],
  ['sort url asc', { sortBy: 'url', sort: 'asc' }],
  ['sort generated_at', { sortBy: 'generated_at' }],
  ['sort result asc', { sortBy: 'result', sort: 'asc' }],
  ['result=bad', { result: 'bad' }],
  ['result=bad sort url', { result: 'bad', sortBy: 'url' }],
  ['project', { project: 'site42.example' }],
  ['project+result', { project: 'site42.example', result: 'good', sortBy: 'generated_at' }],
  ['search rare "page/12345?"', { search: 'page/12345?' }],
  ['search selective "site4321."', { search: 'site4321.' }],
  ['search common "site4"', { search: 'site4' }],
  ['search common page 2', { search: 'site4', page: 2 }],
  ['search common sort url', { search: 'site4', sortBy: 'url', sort: 'asc' }],
  ['search common result=bad', { search: 'site4', result: 'bad' }],
  ['search "site12" (2 %)', { search: 'site12' }],
  ['search 2 chars "zz"', { search: 'zz' }],
  ['search "%"', { search: '%' }],
];
const projects: [string, ListProjectsQuery][] = [
  ['projects list', {}],
  ['projects search "te12"', { search: 'te12' }],
];
// first: the first call of this shape (cold caches of the process); then the mean of 5 more
async function time(name: string, run: () => Promise<{ total: number; items: unknown[] }>) {
  let t = performance.now();
  await run();
  const first = (performance.now() - t).toFixed(1);
  t = performance.now();
  let r = { total: 0, items: [] as unknown[] };
  for (let i = 0; i < 5; i++) r = await run();
  const ms = ((performance.now() - t) / 5).toFixed(1);
  console.log(
    `${name.padEnd(30)} first ${first.padStart(8)} ms  then ${ms.padStart(8)} ms  total=${r.total} items=${r.items.length}`,
  );
}
for (const [name, q] of reports) await time(name, () => services.reports.list(user, q));
for (const [name, q] of projects) await time(name, () => services.projects.list(user, q));

// 10 identical requests at once (as 10 API connections), on a fresh process cache, then again
for (const [name, search] of [
  ['burst of 10, common "site4"', 'site4'],
  ['burst of 10, selective "site4321."', 'site4321.'],
] as const) {
  const fresh = createServices({ queue: embeddedQueue(h.db), db: h.db, analyze, config });
  for (const round of ['cold', 'warm']) {
    const t = performance.now();
    const all = await Promise.all(Array.from({ length: 10 }, () => fresh.reports.list(user!, { search })));
    const ms = (performance.now() - t).toFixed(1);
    console.log(`${`${name} ${round}`.padEnd(42)} ${ms.padStart(8)} ms for all 10  total=${all[0]!.total}`);
  }
}
await h.close();
