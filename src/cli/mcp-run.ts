// `pagegrade mcp`'s process (src/cli/mcp.ts loads this module when the command runs): the
// configured database, the job engine and its workers, the services, and the MCP server on
// stdio until the client closes stdin or a signal comes. stdout is the protocol's: the log
// lines go to stderr.
import pino from 'pino';
import { analyze } from '../analyzer/index.js';
import { unauthorized } from '../errors.js';
import { createJobEngine } from '../jobs/index.js';
import { jobKindsFor } from '../jobs/kinds/index.js';
import { loggerOptions } from '../logger.js';
import { createMcpServer } from '../mcp/server.js';
import { rendererFromConfig } from '../render/index.js';
import { createServices } from '../services/index.js';
import { createDb, migrate } from '../store/database.js';
import { describeDatabase } from '../store/database-url.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadCliConfig } from './config.js';
import { CliError } from './exit-codes.js';

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function runMcp(key: string): Promise<void> {
  const config = loadCliConfig();
  const log = pino({ ...loggerOptions(config.logLevel), base: { component: 'mcp' } }, pino.destination(2));
  const handle = createDb(config.databaseUrl);
  try {
    await migrate(handle.db);
  } catch (err) {
    await handle.close();
    throw new CliError(`cannot open the ${describeDatabase(config.databaseUrl)}: ${message(err)}`);
  }
  const engine = await createJobEngine(config, { db: handle.db, kinds: jobKindsFor(config), log });
  const renderer = rendererFromConfig(config);
  const services = createServices({
    db: handle.db,
    analyze,
    config,
    queue: engine.queue,
    renderer,
    ...(handle.keyChanges ? { keyChanges: handle.keyChanges } : {}),
  });
  const closeAll = async () => {
    await renderer.close().catch(() => {});
    await engine.close().catch(() => {});
    await handle.close().catch(() => {});
  };
  const actor = async () => {
    const auth = await services.auth.authenticate(key);
    if (!auth) throw unauthorized('Unauthenticated: the API key is unknown or revoked.');
    return auth;
  };
  // a wrong key is said at once (exit 2), not at the agent's first call
  if (!(await services.auth.authenticate(key))) {
    await closeAll();
    throw new CliError(
      `the API key is unknown or revoked on the ${describeDatabase(config.databaseUrl)} (make one: pagegrade keys create <user>).`,
    );
  }
  const workers = config.worker
    ? engine.startWorkers({
        deps: { services, queue: engine.queue, log },
        concurrency: config.jobConcurrency,
        shutdownMs: config.workerShutdownMs,
        log,
      })
    : null;

  const mcp = createMcpServer({ services, publicUrl: config.publicUrl, actor });
  const transport = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await mcp.connect(transport);
  log.info(
    { database: describeDatabase(config.databaseUrl), workers: workers !== null },
    'MCP server on stdio',
  );
  await ended;
  // a second signal stops at once
  process.once('SIGTERM', () => process.exit(1));
  process.once('SIGINT', () => process.exit(1));
  await mcp.close().catch(() => {});
  await workers?.stop().catch(() => {});
  await closeAll();
}
