// The entry point: config → database → migrations → first key → listen → graceful close.
//
// Exit codes: 0 after a graceful shutdown (SIGTERM/SIGINT); 78 (EX_CONFIG) when the
// configuration is invalid (the message names the variable); 1 when the service cannot start
// (database or Redis unreachable, migration failed, port in use) or a shutdown step failed.
import type { App } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { DatabaseHandle } from './store/database.js';
import type { RedisClient } from './store/redis.js';

export const EXIT_CONFIG = 78;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`pagegrade: invalid configuration: ${err.message}\n`);
      process.exit(EXIT_CONFIG);
    }
    throw err;
  }

  // the rest of the service is loaded once the configuration is known to be good
  const [
    { sql },
    { buildApp },
    { analyze },
    { createDb, migrate },
    { closeRedis, createRedis, pingRedis },
    { bootstrap, createServices },
  ] = await Promise.all([
    import('kysely'),
    import('./app.js'),
    import('./analyzer/index.js'),
    import('./store/database.js'),
    import('./store/redis.js'),
    import('./services/index.js'),
  ]);

  let database: DatabaseHandle | null = null;
  let redis: RedisClient | null = null;
  let app: App | null = null;

  try {
    database = createDb(config.databaseUrl);
    await migrate(database.db);
    const { db } = database;
    redis = createRedis(config);
    if (redis) await pingRedis(redis);

    const services = createServices({ db, analyze, config });
    const firstKey = await bootstrap(services, config);

    app = await buildApp(config, {
      services,
      healthCheck: async () => {
        await sql`select 1`.execute(db);
      },
      redis,
    });
    await app.listen({ port: config.port, host: config.host });

    if (firstKey !== null) {
      // printed plainly, once, on stdout as its own line (scripts take the last line)
      process.stdout.write(`Created user admin. API key (shown once):\n${firstKey}\n`);
    }
  } catch (err) {
    process.stderr.write(`pagegrade: cannot start: ${err instanceof Error ? err.message : String(err)}\n`);
    await app?.close().catch(() => {});
    await closeRedis(redis).catch(() => {});
    await database?.close().catch(() => {});
    process.exit(1);
  }

  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) {
      // a second signal while closing: stop now
      process.exit(1);
    }
    closing = true;
    // in-flight audits are bounded by the fetch timeout; never hang longer than this
    setTimeout(() => {
      app!.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.fetchTimeoutMs + 20_000).unref();
    app!.log.info({ signal }, 'shutting down: finishing in-flight requests');
    let code = 0;
    try {
      // stops accepting connections, lets in-flight requests finish (new ones get 503)
      await app!.close();
    } catch (err) {
      app!.log.error({ err }, 'closing the HTTP server failed');
      code = 1;
    }
    try {
      await closeRedis(redis);
      await database!.close();
    } catch (err) {
      app!.log.error({ err }, 'closing the database failed');
      code = 1;
    }
    app!.log.info('stopped');
    process.exit(code);
  };
  process.on('SIGTERM', (s) => void shutdown(s));
  process.on('SIGINT', (s) => void shutdown(s));
}

await main();
