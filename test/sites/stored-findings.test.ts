// A batch's site findings are computed once, when it ends, and stored with it: its page, its
// exports and the API read them from there, not from its pages again at every view (issue 20
// §7). Shown here by changing a page's stored facts after the end: the findings stay as
// computed; and by a batch that ended before the column (findings null): computed from its
// pages, as before. Real crawls of a fixture site on 127.0.0.1, on both dialects.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { describeEachDialect } from '../helpers/app.js';
import { batchEnded, startBatchApp, type BatchApp } from '../helpers/batch-app.js';
import { buildUser, type TestUser } from '../helpers/factories.js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.js';

describeEachDialect('stored findings', (dialect) => {
  let app: BatchApp;
  let site: FixtureSite;
  let alice: TestUser;
  before(async () => {
    app = await startBatchApp(dialect);
    site = await startFixtureSite({ pages: 12, crawlDelay: null });
    alice = await buildUser(app.t.services, 'alice');
  });
  after(async () => {
    await app?.close();
    await site?.close();
  });

  test('an ended batch answers the findings stored when it ended', async () => {
    const { t } = app;
    const created = await t.services.batches.create(alice.id, { url: `${site.origin}/`, mode: 'crawl' });
    const ended = await batchEnded(t, alice.id, created.id);
    assert.equal(ended.status, 'done');
    const first = await t.services.batches.results(alice.id, created.id);
    assert.ok(
      first.findings.some((f) => f.count > 0),
      'the fixture site has findings',
    );
    const row = await sql<{
      findings: string | null;
    }>`SELECT findings FROM batches WHERE id = ${created.id}`.execute(t.database.db);
    assert.deepEqual(JSON.parse(row.rows[0]!.findings!), first.findings, 'stored as answered');

    // the pages' facts change afterwards: the ended batch's findings do not
    await sql`UPDATE batch_pages SET facts = NULL WHERE batch_id = ${created.id}`.execute(t.database.db);
    const later = await t.services.batches.results(alice.id, created.id);
    assert.deepEqual(later.findings, first.findings);
    assert.ok(
      later.pages.every((p) => p.facts === null),
      'the pages are read as they are now',
    );

    // a batch that ended before findings were stored: computed from its pages
    await sql`UPDATE batches SET findings = NULL WHERE id = ${created.id}`.execute(t.database.db);
    const computed = await t.services.batches.results(alice.id, created.id);
    assert.notDeepEqual(computed.findings, first.findings, 'computed from the changed pages');
  });
});
