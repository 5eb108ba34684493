// The CSV of a reports list streams with flat memory (docs/api.md#csv), on SQLite and
// PostgreSQL: 100,000 reports are exported from a real server process (a child started with
// --expose-gc, test/api/fixtures/csv-memory-server.ts) while it samples its own live memory
// (heap and buffers after a full GC, every 250 ms). The client stops reading for a second after
// the first bytes, so a server that ignored backpressure would pile the CSV up in its buffers
// (and hold it through several samples).
// The bound is checked against a control in the same process and run: the buffered approach
// (every row collected, then one CSV string) must exceed it several times over — so the bound
// is one a buffered export cannot meet, whatever this machine's speed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describeEachDialect } from '../helpers/app.js';
import { insertReports, openTestDb, type TestDb } from '../helpers/db.js';
import { createServices } from '../../src/services/index.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const ROWS = 100_000;
/** the most the server's live memory may grow while streaming them */
const BOUND = 8 * 1024 * 1024;
const MB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

const serverPath = fileURLToPath(new URL('./fixtures/csv-memory-server.ts', import.meta.url));
const bundledDeps = fileURLToPath(new URL('../helpers/bundled-deps.mjs', import.meta.url));

describeEachDialect(`the CSV of ${ROWS.toLocaleString('en')} reports`, (dialect) => {
  let database: TestDb;
  let child: ChildProcess;
  let port: number;
  let key: string;
  let userId: number;
  const replies: { type: string; [k: string]: unknown }[] = [];

  const ask = <T>(message: object, type: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMessage = (m: { type: string }) => {
        if (m.type !== type) return;
        child.off('message', onMessage);
        resolve(m as T);
      };
      child.on('message', onMessage);
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
      child.send(message);
    });

  before(async () => {
    database = await openTestDb(dialect);
    // the server starts (seconds: tsx, the app) while the reports are inserted; it reads none
    // of them before the test asks
    child = fork(serverPath, [], {
      // typebox and kysely bundled, as in the test processes (test/helpers/bundled-deps.mjs)
      execArgv: ['--import', 'tsx', '--import', bundledDeps, '--expose-gc'],
      env: { ...process.env, CSV_DATABASE_URL: database.databaseUrl },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (m: { type: string }) => replies.push(m));
    const ready = new Promise<number>((resolve, reject) => {
      child.once('message', (m: { type: string; port: number }) =>
        m.type === 'ready' ? resolve(m.port) : reject(new Error(`unexpected ${m.type}`)),
      );
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    ready.catch(() => undefined); // awaited below, after the inserts
    const services = createServices({
      queue: embeddedQueue(database.db),
      db: database.db,
      analyze: testAnalyze,
      config: testServicesConfig(),
    });
    const { organization: owner, key: k } = await services.users.create('exporter');
    userId = owner.id;
    key = k.key;
    const bands = ['good', 'decent', 'bad'] as const;
    await insertReports(
      database.db,
      userId,
      Array.from({ length: ROWS }, (_, i) => ({
        url: `https://site-${i % 50}.example/section-${i % 997}/page-${i}?ref=csv,export`,
        result: bands[i % 3]!,
        score: i % 101,
        issues: { high: i % 3, medium: i % 5, low: i % 7 },
      })),
    );
    port = await ready;
  });
  after(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    await database?.cleanup();
  });

  test('streams every row while the server’s live memory stays flat', async () => {
    await ask({ type: 'start' }, 'started');
    const { lines, bytes, last } = await new Promise<{ lines: number; bytes: number; last: string }>(
      (resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/v1/reports?format=csv&sort=asc',
            headers: { authorization: `Bearer ${key}` },
          },
          (res) => {
            if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}`));
            let lines = 0;
            let bytes = 0;
            let tail = '';
            let paused = false;
            res.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
              for (const b of chunk) if (b === 10) lines += 1;
              tail = (tail + chunk.toString('latin1')).slice(-400);
              if (!paused) {
                // a slow reader: nothing is taken for a second after the first bytes
                paused = true;
                res.pause();
                setTimeout(() => res.resume(), 1_000);
              }
            });
            res.on('end', () => resolve({ lines, bytes, last: tail.trimEnd().split('\n').at(-1)! }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    const streamed = await ask<{ baseline: number; peak: number; peakRss: number }>(
      { type: 'stop' },
      'memory',
    );
    assert.equal(lines, ROWS + 1, 'a header line and one line per report');
    assert.match(
      last,
      new RegExp(`^\\d+,"https://site-\\d+\\.example/section-\\d+/page-${ROWS - 1}\\?ref=csv,export"`),
    );

    // the control: the buffered approach, measured the same way
    await ask({ type: 'start' }, 'started');
    const buffered = await ask<{ rows: number; bytes: number }>({ type: 'buffered', userId }, 'buffered');
    const control = await ask<{ baseline: number; peak: number }>({ type: 'stop' }, 'memory');
    assert.equal(buffered.rows, ROWS);

    const growth = streamed.peak - streamed.baseline;
    const bufferedGrowth = control.peak - control.baseline;
    console.log(
      `[${dialect.name}] ${ROWS} rows, ${MB(bytes)} of CSV: live memory +${MB(growth)} streaming ` +
        `(bound ${MB(BOUND)}), +${MB(bufferedGrowth)} buffered; server peak RSS ${MB(streamed.peakRss)}`,
    );
    assert.ok(growth < BOUND, `streaming grew the live memory by ${MB(growth)} (bound ${MB(BOUND)})`);
    assert.ok(
      bufferedGrowth > 4 * BOUND,
      `the control must exceed the bound several times over: buffered +${MB(bufferedGrowth)}`,
    );
    assert.ok(bytes > BOUND, `the CSV (${MB(bytes)}) is larger than the bound`);
  });
});
