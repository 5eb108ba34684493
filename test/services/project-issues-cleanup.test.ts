// A project that goes with its last report (it has no settings) takes its issue states and its
// rule-change log with it, as DELETE /api/v1/projects/{project} does: a crawl that makes the
// project again must not read another project's states as its previous crawl's (docs/sites.md,
// "Issue states and ignore rules"). SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { buildUser } from '../helpers/factories.js';
import {
  insertRuleChange,
  listIssues,
  listRuleChanges,
  upsertIssues,
} from '../../src/store/issues.repository.js';

describeEachDialect('issue states go with their project', (dialect) => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(dialect);
  });
  after(() => t?.close());

  test('the last report deleted: the project, its issue states and its rule log are gone', async () => {
    const alice = await buildUser(t.services, 'alice');
    const report = await t.services.reports.create(alice.id, { url: `${t.site('shop')}/` });
    const project = report.project;
    const db = t.database.db;
    const now = new Date().toISOString();
    await upsertIssues(db, alice.id, project, [
      {
        kind: 'check',
        issueId: 'meta_description',
        url: `${t.site('shop')}/`,
        state: 'new',
        priority: 'medium',
        title: 'No meta description',
        detail: null,
        firstBatchId: 1,
        batchId: 1,
        ruleId: null,
        reason: null,
        updatedAt: now,
      },
    ]);
    await insertRuleChange(db, alice.id, project, {
      action: 'add',
      ruleId: 'rule_000000000000',
      rules: '[]',
      via: 'api',
      keyId: null,
      keyPrefix: null,
      createdAt: now,
    });
    const count = async () => ({
      issues: (await listIssues(db, alice.id, project, { limit: 10, offset: 0 })).total,
      changes: (await listRuleChanges(db, alice.id, project, 10)).length,
    });
    assert.deepEqual(await count(), { issues: 1, changes: 1 });

    await t.services.reports.delete(alice.id, report.id);
    assert.equal((await t.services.projects.list(alice.id, {})).total, 0, 'the project went with it');
    assert.deepEqual(await count(), { issues: 0, changes: 0 });
  });
});
