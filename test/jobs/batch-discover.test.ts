// batch.discover's last attempt: when discovery keeps failing for a reason that is not the
// site's (the database, a bug — injected here into the real services' discover), the batch
// ends failed with the reason instead of staying queued for ever; an earlier attempt leaves it
// queued for the retry. The site's own failures (unreachable, robots.txt) end the batch from
// discovery itself: test/sites/truth.test.ts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { batchDiscover } from '../../src/jobs/kinds/batch-discover.js';
import type { Services } from '../../src/services/types.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { buildUser } from '../helpers/factories.js';

describeEachDialect('batch.discover gives up', (dialect) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(dialect);
  });
  after(() => t.close());

  const failing = (): Pick<Services, 'batches'> => ({
    batches: {
      ...t.services.batches,
      discover: async () => {
        throw new Error('the database is locked');
      },
    },
  });
  const job = (batchId: number, attempt: number) => ({
    id: `discover-${batchId}-${attempt}`,
    kind: batchDiscover.kind,
    payload: { batchId },
    attempt,
    maxAttempts: batchDiscover.maxAttempts,
    signal: new AbortController().signal,
  });

  test('an earlier attempt leaves the batch queued; the last one ends it failed with the reason', async () => {
    const user = await buildUser(t.services);
    const batch = await t.services.batches.create(user.id, { url: `${t.site('stuck')}/`, mode: 'crawl' });
    await assert.rejects(batchDiscover.handle(job(batch.id, 1), { services: failing() }), /locked/);
    assert.equal((await t.services.batches.get(user.id, batch.id)).status, 'queued', 'retried later');

    await assert.rejects(
      batchDiscover.handle(job(batch.id, batchDiscover.maxAttempts), { services: failing() }),
      /locked/,
      'the job still goes dead, for inspection',
    );
    const ended = await t.services.batches.get(user.id, batch.id);
    assert.equal(ended.status, 'failed');
    assert.equal(ended.error, 'The batch could not start: the database is locked');
    assert.notEqual(ended.finishedAt, null);
  });
});
