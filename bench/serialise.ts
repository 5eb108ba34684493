// How to write a page of the reports list (docs/api.md, "CPU per request"): the same page,
// read once from a seeded SQLite file, written three ways in interleaved rounds (CPU time per
// page; the HTTP layer around it is the same for all three):
// - `stringify`: each row's categories parsed, presented, JSON.stringify (the API before);
// - `compiled`: the same object through Fastify's compiled serialiser for the ReportList
//   response schema (reply.compileSerializationSchema: fast-json-stringify);
// - `text`: the stored categories spliced in by reportWriter + paginateText (the API now).
//
//   npx tsx bench/serialise.ts [--db bench/.data/profile-50000.db] [--per-page 100] [--n 2000] [--rounds 5]
//
// The parsing of the stored categories counts in `stringify` and `compiled` (their rows need it).
//
// The file is seeded by `npx tsx bench/lib/profile-api.ts --reports 50000 --inject 1`.
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { createDb } from '../src/store/database.js';
import { summaryTextsByIds } from '../src/store/reports.repository.js';
import { paginate, paginateText } from '../src/contract/pagination.js';
import { presentReportSummary, reportWriter } from '../src/contract/reports/present.js';
import { ReportList } from '../src/contract/reports/schemas.js';

const { values: args } = parseArgs({
  options: {
    db: { type: 'string', default: 'bench/.data/profile-50000.db' },
    'per-page': { type: 'string', default: '100' },
    n: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '5' },
  },
});
const perPage = Number(args['per-page']);
const publicUrl = 'http://127.0.0.1:8080';
const handle = createDb(`sqlite:${args.db}`);
const ids = (
  await handle.db.selectFrom('reports').select('id').orderBy('id', 'desc').limit(perPage).execute()
).map((r) => r.id);
const rows = await summaryTextsByIds(handle.db, ids);
await handle.close();
const pages = { total: 100_000, page: 1, perPage, path: `${publicUrl}/api/v1/reports`, rawQuery: '' };
const presented = () =>
  paginate({
    ...pages,
    items: rows.map(({ categoriesJson, ...r }) =>
      presentReportSummary({ ...r, categories: JSON.parse(categoriesJson) }, publicUrl),
    ),
  });
const write = reportWriter(publicUrl);

// Fastify's compiled serialiser for the list's response schema, as a route with that schema gets it
let compiledSerialiser: ((data: unknown) => string) | null = null;
const app = Fastify({ logger: false });
app.get('/', async (_request, reply) => {
  compiledSerialiser = reply.compileSerializationSchema(ReportList as unknown as Record<string, unknown>) as (
    data: unknown,
  ) => string;
  return '';
});
await app.inject({ url: '/' });
await app.close();
const compiledStringify = compiledSerialiser!;

const ways: Record<string, () => string> = {
  stringify: () => JSON.stringify(presented()),
  compiled: () => compiledStringify(presented()),
  text: () => paginateText({ ...pages, items: rows.map(write.summary) }),
};
// the three answers mean the same
const [a, b, c] = Object.values(ways).map((f) => JSON.stringify(JSON.parse(f())));
if (a !== b || a !== c) throw new Error('the three answers differ');

const n = Number(args.n);
const cpu: Record<string, number[]> = { stringify: [], compiled: [], text: [] };
let bytes = 0;
for (let round = 0; round < Number(args.rounds) + 1; round++) {
  for (const [name, f] of Object.entries(ways)) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) bytes += f().length;
    const used = process.cpuUsage(c0);
    if (round > 0) cpu[name]!.push((used.user + used.system) / n); // round 0 warms up
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;
console.log(
  `${perPage} rows a page, ${ways.text!().length} bytes; CPU µs to write the page (median of ${args.rounds} rounds of ${n}):`,
);
for (const [name, xs] of Object.entries(cpu)) console.log(`${name.padEnd(10)} ${median(xs).toFixed(1)}`);
if (bytes === 0) throw new Error('nothing written');
