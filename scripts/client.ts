// npm run client: regenerates src/client/schema.ts from the OpenAPI document the app serves
// (built here over an in-memory SQLite database; nothing listens).
import { writeFileSync } from 'node:fs';
import { analyze } from '../src/analyzer/index.js';
import { buildApp } from '../src/app.js';
import { configFromEnv } from '../src/config.js';
import { createServices } from '../src/services/index.js';
import { createDb, migrate } from '../src/store/database.js';
import { SCHEMA_FILE, clientTypes } from './client-types.js';
import { embeddedQueue } from '../src/jobs/index.js';

const config = configFromEnv({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
const handle = createDb(config.databaseUrl);
try {
  await migrate(handle.db);
  const services = createServices({ queue: embeddedQueue(handle.db), db: handle.db, analyze, config });
  const app = await buildApp(config, { services, healthCheck: async () => {} });
  const res = await app.inject({ url: '/api/v1/openapi.json' });
  await app.close();
  writeFileSync(SCHEMA_FILE, await clientTypes(res.json()));
  console.log(`wrote ${SCHEMA_FILE.pathname}`);
} finally {
  await handle.close();
}
