// Crawl request settings that cannot be decrypted (PAGEGRADE_SECRET_KEY changed since they
// were stored, or unset), on every dialect: the batch's discovery (run here by hand, as its job
// would) ends it failed with the reason — it is not crawled without them, and nothing of the
// settings is in the error. And the rule that adds them to requests (fetch/site-headers.ts):
// only on the site's origin, the Cookie joined, the connection's own headers never set.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { analyze } from '../../src/analyzer/index.js';
import { withSiteHeaders } from '../../src/analyzer/fetch/site-headers.js';
import { createServices } from '../../src/services/index.js';
import { embeddedQueue } from '../../src/jobs/index.js';
import { describeEachDialect, buildTestApp, type TestApp } from '../helpers/app.js';
import { testServicesConfig } from '../helpers/config.js';
import { buildUser, type TestUser } from '../helpers/factories.js';

const OLD_KEY = 'c'.repeat(64);
const NEW_KEY = 'd'.repeat(64);

describeEachDialect('crawl request settings the key cannot decrypt', (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  before(async () => {
    // no workers: the batch stays queued until discovery is run below
    t = await buildTestApp(dialect, { config: { secretKey: OLD_KEY } });
    alice = await buildUser(t.services, 'alice');
  });
  after(() => t?.close());

  for (const [name, key] of [
    ['a changed key', NEW_KEY],
    ['no key', null],
  ] as const) {
    test(`${name}: the batch fails at its start with the reason`, async () => {
      const origin = t.site(`walled-${key === null ? 'nokey' : 'newkey'}`);
      const project = new URL(origin).hostname;
      const put = await t.request({
        method: 'PUT',
        url: `/api/v1/projects/${project}`,
        headers: { ...alice.auth, 'content-type': 'application/json' },
        payload: JSON.stringify({
          start_url: `${origin}/`,
          basic_auth: { username: 'u', password: 'pw-secret-1' },
        }),
      });
      assert.equal(put.statusCode, 201, put.body);
      const batch = await t.services.batches.create(alice.id, { url: `${origin}/`, mode: 'crawl' });
      // the worker of a process with another key (or none)
      const other = createServices({
        db: t.database.db,
        analyze,
        config: testServicesConfig({ secretKey: key }),
        queue: embeddedQueue(t.database.db),
      });
      await other.batches.discover(batch.id);
      const ended = await t.services.batches.get(alice.id, batch.id);
      assert.equal(ended.status, 'failed');
      assert.match(ended.error ?? '', /crawl request settings cannot be used: .*PAGEGRADE_SECRET_KEY/);
      assert.ok(!(ended.error ?? '').includes('pw-secret-1'));
    });
  }
});

test('site headers: only on the origin, per request', () => {
  const site = {
    origin: 'http://wall.test:8080',
    headers: { 'x-token': 't', cookie: 'a=1', authorization: 'Basic x', host: 'evil', 'user-agent': 'Wall' },
  };
  const base = { 'User-Agent': 'Pagegrade', accept: '*/*' };
  assert.deepEqual(withSiteHeaders('http://wall.test:8080/p?q=1', base, site), {
    'user-agent': 'Wall',
    accept: '*/*',
    'x-token': 't',
    cookie: 'a=1',
    authorization: 'Basic x',
  });
  // the Cookie header already there (a rendered page's own) is kept, the site's joined to it
  assert.equal(withSiteHeaders('http://wall.test:8080/', { cookie: 'own=2' }, site).cookie, 'own=2; a=1');
  // another host, the www twin, another port, another scheme: nothing added
  for (const url of [
    'http://other.test:8080/',
    'http://www.wall.test:8080/',
    'http://wall.test:8081/',
    'https://wall.test:8080/',
    'not a url',
  ])
    assert.equal(withSiteHeaders(url, base, site), base, url);
  assert.equal(withSiteHeaders('http://wall.test:8080/', base, undefined), base);
});
