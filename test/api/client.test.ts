// The typed client (`pagegrade/client`: openapi-fetch over types generated from the served
// OpenAPI document). The committed types must be what the served document gives (else: run
// `npm run client`), and the client works against the real app listening on 127.0.0.1.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createClient, type PagegradeClient } from '../../src/client/index.js';
import { SCHEMA_FILE, clientTypes } from '../../scripts/client-types.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { sqliteDialect } from '../helpers/db.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';

let t: TestApp;
let alice: TestUser;
let api: PagegradeClient;

before(async () => {
  t = await buildTestApp(sqliteDialect, { logLevel: 'silent' });
  alice = await buildUser(t.services, 'alice');
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  api = createClient({ baseUrl: address, key: alice.key });
});
after(() => t.close());

test('the committed client types are those of the served document (npm run client)', async () => {
  const res = await t.app.inject({ url: '/api/v1/openapi.json' });
  const expected = await clientTypes(res.json());
  const committed = readFileSync(SCHEMA_FILE, 'utf8');
  assert.ok(
    committed === expected,
    'src/client/schema.ts differs from the served OpenAPI document: run `npm run client` and commit it',
  );
});

test('the client: account, list, show, store, errors', async () => {
  const account = await api.GET('/api/v1/account');
  assert.equal(account.response.status, 200);
  assert.equal(account.data?.data.name, 'alice');

  const r = await buildReport(t.services, alice, { path: '/client' });
  const shown = await api.GET('/api/v1/reports/{id}', { params: { path: { id: r.id } } });
  assert.equal(shown.data?.data.id, r.id);
  assert.ok(shown.data && Object.keys(shown.data.data.results).length > 0);

  const list = await api.GET('/api/v1/reports', { params: { query: { per_page: 10, sort: 'asc' } } });
  assert.equal(list.data?.meta.total, 1);
  // the list as CSV: read as text (docs/api.md#csv)
  const csv = await api.GET('/api/v1/reports', { params: { query: { format: 'csv' } }, parseAs: 'text' });
  assert.equal(csv.response.headers.get('content-type'), 'text/csv; charset=utf-8');
  assert.equal(String(csv.data).split('\n')[1]?.split(',')[0], String(r.id));

  const stored = await api.POST('/api/v1/reports', { body: { url: `${t.site('client')}/` } });
  assert.equal(stored.response.status, 201);
  assert.ok(stored.data?.data.id);

  const missing = await api.GET('/api/v1/reports/{id}', { params: { path: { id: 99999999 } } });
  assert.equal(missing.response.status, 404);
  assert.equal(missing.error?.message, 'No such report.');

  const bad = createClient({
    baseUrl: `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`,
    key: 'pg_nope',
  });
  const unauth = await bad.GET('/api/v1/account');
  assert.equal(unauth.response.status, 401);
});
