// The process under load: the real application (buildApp over createServices over the
// store, exactly as src/server.ts builds it, rate limit off) on one port of 127.0.0.1, and a
// bare Fastify instance answering GET /bare → {"ok":true} on another — both in this process,
// so the bare route's figures are the floor of what Node and Fastify can do here.
//
// Started by bench/api.ts with fork() (so the load generator does not share its event loop).
// Talks over IPC: sends {type:'ready', appPort, barePort}; answers {type:'rss', phase?} with
// {type:'rss', rss, peakRss, phase: the peak sample since the last phase:true} and {type:'cpu'}
// with {type:'cpu', us} (process.cpuUsage(), user + system). Environment: BENCH_DATABASE_URL,
// BENCH_LOG_LEVEL, BENCH_LOG_FILE, PAGEGRADE_API_HEAP_GROWTH.
import { createWriteStream } from 'node:fs';
import { configFromEnv } from '../../src/config.js';
import { setHeapGrowth } from '../../src/jobs/heap.js';

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
  ...(process.env.PAGEGRADE_API_HEAP_GROWTH
    ? { PAGEGRADE_API_HEAP_GROWTH: process.env.PAGEGRADE_API_HEAP_GROWTH }
    : {}),
});
// V8's heap growth as src/server.ts sets it: once the configuration is read, before the rest of
// the service is loaded (src/jobs/heap.ts)
setHeapGrowth(config.apiHeapGrowth);
console.log(
  `server: V8 heap growth ${config.apiHeapGrowth ? `${config.apiHeapGrowth} %` : "V8's own"} (PAGEGRADE_API_HEAP_GROWTH)`,
);
const [
  { default: Fastify },
  { pino },
  { sql },
  { buildApp },
  { analyze },
  { createDb },
  { createPgChangeBus, pgKeyChanges },
  { createServices },
  { embeddedQueue },
] = await Promise.all([
  import('fastify'),
  import('pino'),
  import('kysely'),
  import('../../src/app.js'),
  import('../../src/analyzer/index.js'),
  import('../../src/store/database.js'),
  import('../../src/store/pg-changes.js'),
  import('../../src/services/index.js'),
  import('../../src/jobs/index.js'),
]);
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
// the peak since the last {type:'rss', phase:true} (the bench asks after each query): the RSS and
// what V8's heap and the buffers outside it held at that sample
let phase = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0 };
const sample = (): void => {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  if (m.rss > phase.rss)
    phase = {
      rss: m.rss,
      heapTotal: m.heapTotal,
      heapUsed: m.heapUsed,
      external: m.external + m.arrayBuffers,
    };
};
setInterval(sample, 100).unref();

process.on('message', (m: { type?: string; phase?: boolean }) => {
  if (m?.type === 'rss') {
    sample();
    const rss = process.memoryUsage().rss;
    process.send!({ type: 'rss', rss, peakRss, phase });
    if (m.phase) phase = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0 };
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
