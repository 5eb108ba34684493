// The process under load: the real application (buildApp over createServices over the
// store, exactly as src/server.ts builds it, rate limit off) on one port of 127.0.0.1, and a
// bare Fastify instance answering GET /bare → {"ok":true} on another — both in this process,
// so the bare route's figures are the floor of what Node and Fastify can do here.
//
// Started by bench/api.ts with fork() (so the load generator does not share its event loop).
// Talks over IPC: sends {type:'ready', appPort, barePort}; answers {type:'rss'} with
// {type:'rss', rss, peakRss} and {type:'cpu'} with {type:'cpu', us} (process.cpuUsage(), user +
// system). Environment: BENCH_DATABASE_URL, BENCH_LOG_LEVEL, BENCH_LOG_FILE.
import { createWriteStream } from 'node:fs';
import Fastify from 'fastify';
import { pino } from 'pino';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { configFromEnv } from '../../src/config.js';
import { analyze } from '../../src/analyzer/index.js';
import { createDb } from '../../src/store/database.js';
import { createPgChangeBus, pgKeyChanges } from '../../src/store/pg-changes.js';
import { createServices } from '../../src/services/index.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl || !process.send) {
  console.error('bench/lib/server.ts is started by bench/api.ts');
  process.exit(2);
}
const logLevel = process.env.BENCH_LOG_LEVEL ?? 'info';

const config = configFromEnv({
  DATABASE_URL: databaseUrl,
  PAGEGRADE_RATE_LIMIT: '0',
  LOG_LEVEL: logLevel,
  PAGEGRADE_SESSION_SECRET: 'bench-session-secret-bench-session-secret',
});
const handle = createDb(config.databaseUrl);
// the key cache as src/server.ts has it: SQLite's signal from the connection, PostgreSQL's from a LISTEN bus
const pgBus = handle.dialect === 'postgres' ? createPgChangeBus(config.databaseUrl, handle.db) : null;
await pgBus?.ready();
const keyChanges = handle.keyChanges ?? pgKeyChanges(pgBus!);
const services = createServices({
  queue: embeddedQueue(handle.db),
  db: handle.db,
  analyze,
  config,
  keyChanges,
});
// the same pino options as the server (redaction included), written to a file rather than a terminal
const logger = pino(
  { level: logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
  process.env.BENCH_LOG_FILE ? createWriteStream(process.env.BENCH_LOG_FILE, { flags: 'a' }) : undefined,
);
const app = await buildApp(config, {
  services,
  logger,
  healthCheck: async () => {
    await sql`select 1`.execute(handle.db);
  },
});
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ ok: true }));

await app.listen({ port: 0, host: '127.0.0.1' });
await bare.listen({ port: 0, host: '127.0.0.1' });
const portOf = (a: { server: { address(): unknown } }): number =>
  (a.server.address() as { port: number }).port;

let peakRss = process.memoryUsage().rss;
setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 250).unref();

process.on('message', (m: { type?: string }) => {
  if (m?.type === 'rss') {
    const rss = process.memoryUsage().rss;
    peakRss = Math.max(peakRss, rss);
    process.send!({ type: 'rss', rss, peakRss });
  }
  // this process's CPU time so far (user + system, µs): the bench divides a run's share by its requests
  if (m?.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send!({ type: 'cpu', us: user + system });
  }
});
process.on('SIGTERM', () => {
  void Promise.all([app.close(), bare.close(), pgBus?.close()])
    .then(() => handle.close())
    .finally(() => process.exit(0));
});
process.send({ type: 'ready', appPort: portOf(app), barePort: portOf(bare) });
