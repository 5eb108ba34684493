// Benchmark: the CSV of a reports list (docs/api.md#csv) with N reports (default 1,000,000) —
// time to the last byte and the server's peak RSS — against a raw read of the same rows in the
// same run (one SELECT of the CSV's columns in the list's order, iterated by better-sqlite3:
// no keyset chunks, no CSV, no HTTP).
//
//   npx tsx bench/csv-export.ts [--reports 1000000] [--reuse]
//
// SQLite (bench/.data/csv-<N>.db), seeded by bench/lib/seed.ts with lean rows: the results and
// page JSON are `{}` (a real report's results are ~30 kB: a million of them would not fit this
// machine's time budget; the export never reads them, but SQLite reads past them to the columns
// stored after them, so real rows cost more I/O — see docs/api.md#csv). The server is the real
// application in a child process (bench/lib/server.ts); each export is one request read to the
// end by this process. The raw read runs in a child of its own (its own peak RSS).
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpus } from 'node:os';
import SqliteDatabase from 'better-sqlite3';
import { analyze } from '../src/analyzer/index.js';
import { configFromEnv } from '../src/config.js';
import { createDb, migrate } from '../src/store/database.js';
import { createServices } from '../src/services/index.js';
import { synthesizeTemplates, type Templates } from './lib/corpus.js';
import { seedSqlite, type SeedResult } from './lib/seed.js';
import { embeddedQueue } from '../src/jobs/index.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = join(ROOT, 'bench/.data');
const SELF = fileURLToPath(import.meta.url);

const { values: args } = parseArgs({
  options: {
    reports: { type: 'string', default: '1000000' },
    reuse: { type: 'boolean', default: false },
    // internal: the raw-read child
    'raw-read': { type: 'string' },
    user: { type: 'string' },
  },
});

// ── the raw-read child ─────────────────────────────────────────────────────────────────────
if (args['raw-read']) {
  const db = new SqliteDatabase(args['raw-read'], { readonly: true });
  const t0 = performance.now();
  let rows = 0;
  let bytes = 0;
  const stmt = db.prepare(
    `SELECT id, url, project, result, score, high_issues, medium_issues, low_issues, generated_at, created_at
       FROM reports WHERE org_id = ? ORDER BY id DESC`,
  );
  for (const r of stmt.iterate(Number(args.user)) as Iterable<{ url: string }>) {
    rows += 1;
    bytes += r.url.length;
  }
  const ms = performance.now() - t0;
  db.close();
  process.send!({ type: 'result', rows, bytes, ms, maxRssKb: process.resourceUsage().maxRSS }, () =>
    process.exit(0),
  );
} else {
  await main();
}

async function main(): Promise<void> {
  const N = Number(args.reports);
  mkdirSync(DATA, { recursive: true });
  const file = join(DATA, `csv-${N}.db`);
  const marker = join(DATA, `csv-${N}.seed.json`);
  let seed: SeedResult;
  if (args.reuse && existsSync(marker) && existsSync(file)) {
    seed = JSON.parse(readFileSync(marker, 'utf8')) as SeedResult;
  } else {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    const synth = synthesizeTemplates();
    const lean = (b: 'good' | 'decent' | 'bad') => ({ ...synth.byBand[b], results: '{}', page: '{}' });
    const templates: Templates = {
      ...synth,
      source: 'lean rows (results and page `{}`)',
      resultsBytes: 2,
      byBand: { good: lean('good'), decent: lean('decent'), bad: lean('bad') },
    };
    console.log(`seeding SQLite ${file} with ${N} reports…`);
    seed = await seedSqlite(file, {
      reports: N,
      projects: 5000,
      otherUserReports: 1000,
      templates,
      log: (l) => console.log(l),
    });
    writeFileSync(marker, JSON.stringify(seed, null, 2));
  }
  const databaseUrl = `sqlite:${file}`;
  const handle = createDb(databaseUrl);
  await migrate(handle.db);
  const services = createServices({
    queue: embeddedQueue(handle.db),
    db: handle.db,
    analyze,
    config: configFromEnv({
      DATABASE_URL: databaseUrl,
      PAGEGRADE_SESSION_SECRET: 'bench-session-secret-bench-session-secret',
    }),
  });
  const key = (await services.keys.create(seed.userName ?? seed.userId)).key;
  await handle.close();
  const sizeMb = (statSync(file).size / 1024 / 1024).toFixed(0);

  const results: {
    name: string;
    rows: number;
    bytes: number;
    ms: number;
    peakKb: number;
    idleKb?: number;
  }[] = [];

  // the baseline: a raw read of the same rows
  const raw = await new Promise<{ rows: number; bytes: number; ms: number; maxRssKb: number }>(
    (resolve, reject) => {
      const child = fork(SELF, ['--raw-read', file, '--user', String(seed.userId)], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      child.on(
        'message',
        (m: { type: string; rows: number; bytes: number; ms: number; maxRssKb: number }) => {
          if (m.type === 'result') resolve(m);
        },
      );
      child.on('exit', (code) => code !== 0 && reject(new Error(`raw read exited ${code}`)));
    },
  );
  results.push({ name: 'raw read (better-sqlite3 iterate, no CSV, no HTTP)', ...raw, peakKb: raw.maxRssKb });
  console.log(`raw read: ${raw.rows} rows in ${(raw.ms / 1000).toFixed(1)} s`);

  for (const [name, query] of [
    ['CSV, default order (id desc)', 'format=csv'],
    ['CSV, sort_by=url asc', 'format=csv&sort_by=url&sort=asc'],
    ['CSV, result=bad', 'format=csv&result=bad'],
  ] as const) {
    const server = await startServer(databaseUrl);
    try {
      const idle = await server.rss();
      const t0 = performance.now();
      const got = await download(server.port, `/api/v1/reports?${query}`, key);
      const ms = performance.now() - t0;
      const { peakRss } = await server.rss();
      results.push({
        name,
        rows: got.lines - 1,
        bytes: got.bytes,
        ms,
        peakKb: peakRss / 1024,
        idleKb: idle.rss / 1024,
      });
      console.log(
        `${name}: ${got.lines - 1} rows, ${(got.bytes / 1e6).toFixed(0)} MB in ${(ms / 1000).toFixed(1)} s`,
      );
    } finally {
      await server.stop();
    }
  }

  const rate = (r: { rows: number; ms: number }) => (r.rows / r.ms) * 1000;
  console.log(
    `\n\`npx tsx bench/csv-export.ts --reports ${N}\` — ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}; SQLite file ${sizeMb} MB (lean rows)\n`,
  );
  console.log('| run | rows | CSV | time | rows/s | vs raw read | peak RSS (idle) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results)
    console.log(
      `| ${r.name} | ${r.rows.toLocaleString('en')} | ${r.name.startsWith('raw') ? '–' : `${(r.bytes / 1e6).toFixed(0)} MB`} | ${(r.ms / 1000).toFixed(1)} s | ${Math.round(rate(r)).toLocaleString('en')} | ${(rate(r) / rate(raw)).toFixed(2)}× | ${(r.peakKb / 1024).toFixed(0)} MB${r.idleKb ? ` (${(r.idleKb / 1024).toFixed(0)} MB)` : ''} |`,
    );
}

interface Server {
  port: number;
  rss(): Promise<{ rss: number; peakRss: number }>;
  stop(): Promise<void>;
}

function startServer(databaseUrl: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(join(ROOT, 'bench/lib/server.ts'), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_DATABASE_URL: databaseUrl, BENCH_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    child.once('message', (m: { type: string; appPort: number }) => {
      if (m.type !== 'ready') return reject(new Error(`unexpected ${m.type}`));
      resolve({
        port: m.appPort,
        rss: () =>
          new Promise((res) => {
            const on = (r: { type: string; rss: number; peakRss: number }) => {
              if (r.type !== 'rss') return;
              child.off('message', on);
              res(r);
            };
            child.on('message', on);
            child.send({ type: 'rss' });
          }),
        stop: () =>
          new Promise((res) => {
            child.removeAllListeners('exit');
            child.once('exit', () => res());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

function download(port: number, path: string, key: string): Promise<{ lines: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${key}` } },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${path}: ${res.statusCode}`));
        let lines = 0;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
        });
        res.on('end', () => resolve({ lines, bytes }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
