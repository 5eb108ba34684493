// The issue-count migration (2026-11-27T03) on a database that already has reports (every
// dialect): each report's failed checks of each priority are counted from its `results` JSON
// into high_issues, medium_issues and low_issues; new and re-audited reports are counted as
// they are written (src/store/reports.repository.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator } from 'kysely';
import { createDb } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import { cannedAudit } from '../helpers/factories.js';
import { dialects } from '../helpers/db.js';

const BEFORE = '2026-11-26T04-api-key-scopes';
const provider = { getMigrations: () => Promise.resolve(migrations) };

for (const dialect of dialects) {
  describe(`issue counts migration [${dialect.name}]`, { skip: dialect.skip }, () => {
    test('counts the failed checks of existing reports by priority', async () => {
      const setup = await dialect.setup();
      const h = createDb(setup.databaseUrl);
      try {
        const migrator = new Migrator({ db: h.db, provider });
        assert.equal((await migrator.migrateTo(BEFORE)).error, undefined);
        const now = '2026-11-20T10:00:00.000Z';
        const audit = cannedAudit('http://canned.test/');
        // one report as audited, one with every check failed, one with none judged
        const allFailed = Object.fromEntries(
          Object.entries(audit.results).map(([id, r]) => [id, { ...r, passed: false }]),
        );
        const noneJudged = Object.fromEntries(
          Object.entries(audit.results).map(([id, r]) => [id, { ...r, passed: null }]),
        );
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const db = h.db as any;
        const user = await db
          .insertInto('users')
          .values({ name: 'old', created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const ids: number[] = [];
        for (const [k, results] of [audit.results, allFailed, noneJudged].entries()) {
          const row = await db
            .insertInto('reports')
            .values({
              user_id: user.id,
              url: `http://canned.test/${k}`,
              final_url: `http://canned.test/${k}`,
              project: 'canned.test',
              result: audit.result,
              result_rank: 0,
              score: audit.score,
              privacy: 0,
              password_hash: null,
              categories: JSON.stringify(audit.categories),
              results: JSON.stringify(results),
              page: JSON.stringify(audit.page),
              generated_at: now,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          ids.push(row.id as number);
        }
        assert.equal((await migrator.migrateToLatest()).error, undefined);

        const count = (results: Record<string, { priority: string; passed: boolean | null }>) =>
          (['high', 'medium', 'low'] as const).map(
            (p) => Object.values(results).filter((r) => r.priority === p && r.passed === false).length,
          );
        const rows = await h.db
          .selectFrom('reports')
          .select(['id', 'high_issues', 'medium_issues', 'low_issues'])
          .orderBy('id')
          .execute();
        const got = rows.map((r) => [r.high_issues, r.medium_issues, r.low_issues].map(Number));
        const expected = [count(audit.results), count(allFailed), [0, 0, 0]];
        assert.deepEqual(got, expected);
        assert.ok(
          expected[0]!.some((n) => n > 0),
          'the canned audit fails some checks',
        );
        assert.equal(
          expected[1]!.reduce((a, b) => a + b, 0),
          Object.keys(audit.results).length,
        );

        // and back down: the columns go
        assert.equal((await migrator.migrateTo(BEFORE)).error, undefined);
      } finally {
        await h.close();
        await setup.cleanup();
      }
    });
  });
}
