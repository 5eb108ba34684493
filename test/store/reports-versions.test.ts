// getReportsVersions on PostgreSQL (src/store/organizations.repository.ts): the reads asked for
// one organisation in one turn of the event loop share one query, sent after all of them were
// asked — and a read never joins a query already sent, so a caller always sees every change
// committed before it asked: shown with a reader that keeps a read pending in every turn while
// another commits a change and reads it back, 300 times (the same check fails when a read may
// join one already sent). Real PostgreSQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDb, migrate } from '../../src/store/database.js';
import { bumpReportsVersion, getReportsVersions } from '../../src/store/organizations.repository.js';
import { createServices } from '../../src/services/index.js';
import { embeddedQueue } from '../../src/jobs/index.js';
import {
  createTempDatabase,
  POSTGRES_UNAVAILABLE,
  REQUIRE_POSTGRES,
  skipUnlessRequired,
} from '../helpers/services.js';
import { TEST_SERVICES_CONFIG, testAnalyze } from '../helpers/api-harness.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

test('PostgreSQL: version reads of one turn share a query; none joins one already sent', async (t) => {
  if (skipUnlessRequired(t, POSTGRES_UNAVAILABLE, REQUIRE_POSTGRES)) return;
  const temp = await createTempDatabase();
  const h = createDb(temp.url);
  try {
    await migrate(h.db);
    const services = createServices({
      db: h.db,
      queue: embeddedQueue(h.db),
      analyze: testAnalyze,
      config: TEST_SERVICES_CONFIG,
    });
    const { organization } = await services.users.create('versions');
    const org = organization.id;

    // asked in one turn: one read; asked once it was sent: another
    const a = getReportsVersions(h.db, org);
    const b = getReportsVersions(h.db, org);
    assert.equal(a, b, 'the same pending read');
    const first = await a;
    assert.ok(first !== null);
    const c = getReportsVersions(h.db, org);
    assert.notEqual(c, a, 'a read asked after the first was sent is its own');
    await c;
    assert.equal(await getReportsVersions(h.db, org + 1000), null, 'no such organisation');

    // a reader keeps a read pending in every turn; a writer commits, then reads: it must see
    // its own change each time (it would not if it joined a read sent before its commit). The
    // reads' answers reach their callers 5 ms after PostgreSQL gave them (a plugin), so a read
    // sent before the commit is still in flight when the writer asks.
    const slow = h.db.withPlugin({
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return result;
      },
    });
    let done = false;
    let background = 0;
    let inFlight = 0;
    const reader = (async () => {
      while (!done) {
        // a few reads in flight at most (each holds its answer 5 ms)
        if (inFlight < 4) {
          inFlight++;
          void getReportsVersions(slow, org).then(() => {
            inFlight--;
            background++;
          });
        }
        await turn();
      }
    })();
    let expected = first.version;
    try {
      for (let i = 0; i < 300; i++) {
        await bumpReportsVersion(h.db, org, i % 3 === 0);
        expected++;
        const seen = await getReportsVersions(slow, org);
        assert.equal(seen?.version, expected, `round ${i}: the writer sees its commit`);
      }
    } finally {
      done = true;
      await reader;
      while (inFlight > 0) await turn();
    }
    assert.ok(background > 0, 'the reader ran alongside');
    console.log(`300 commits read back; ${background} reads by the other reader meanwhile`);
  } finally {
    await h.close();
    await temp.drop();
  }
});
