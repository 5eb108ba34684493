// The project-schedules migration (2026-11-29T05) on a database of the previous release with a
// report's schedule (every dialect): the schedule keeps every column (its claim and last run
// too); a row now belongs to a report or a project, never both nor neither; a project's row goes
// with its project; `skipped` and `started` are statuses. Down keeps the reports' schedules.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator } from 'kysely';
import { createDb } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import { cannedAudit } from '../helpers/factories.js';
import { dialects } from '../helpers/db.js';

const BEFORE = '2026-11-29T01-batch-project';
const THIS = '2026-11-29T05-project-schedules';
const provider = { getMigrations: () => Promise.resolve(migrations) };

for (const dialect of dialects) {
  describe(`project schedules migration [${dialect.name}]`, { skip: dialect.skip }, () => {
    test("keeps the reports' schedules; a row is a report's or a project's; down keeps the reports'", async () => {
      const setup = await dialect.setup();
      const h = createDb(setup.databaseUrl);
      try {
        const migrator = new Migrator({ db: h.db, provider });
        assert.equal((await migrator.migrateTo(BEFORE)).error, undefined);
        const now = '2026-11-20T10:00:00.000Z';
        const audit = cannedAudit('http://canned.test/');
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const db = h.db as any;
        const user = await db
          .insertInto('users')
          .values({ name: 'old', created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        const report = await db
          .insertInto('reports')
          .values({
            user_id: user.id,
            url: 'http://canned.test/a',
            final_url: 'http://canned.test/a',
            project: 'canned.test',
            result: audit.result,
            result_rank: 0,
            score: audit.score,
            privacy: 0,
            password_hash: null,
            categories: JSON.stringify(audit.categories),
            results: JSON.stringify(audit.results),
            page: JSON.stringify(audit.page),
            generated_at: now,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const old = {
          report_id: report.id,
          user_id: user.id,
          every: '30 6 * * 1-5',
          timezone: 'Europe/Paris',
          render: 1,
          next_run_at: '2026-11-21T05:32:00.000Z',
          claimed_slot: '2026-11-20T05:30:00.000Z',
          claimed_at: '2026-11-20T05:32:00.000Z',
          run_started_at: 1_763_616_720_000,
          last_slot: '2026-11-19T05:30:00.000Z',
          last_run_at: '2026-11-19T05:32:04.000Z',
          last_status: 'completed',
          last_error: null,
          last_run_number: 4,
          created_at: now,
          updated_at: now,
        };
        const { id } = await db.insertInto('schedules').values(old).returning('id').executeTakeFirstOrThrow();
        const read = async (scheduleId: number) => {
          const r = await db
            .selectFrom('schedules')
            .selectAll()
            .where('id', '=', scheduleId)
            .executeTakeFirst();
          if (!r) return r;
          const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
          return Object.fromEntries(
            Object.entries(r as Record<string, unknown>).map(([k, v]) => [
              k,
              k === 'run_started_at' ? Number(v) : iso(v),
            ]),
          );
        };
        const pick = (r: Record<string, unknown> | undefined) =>
          Object.fromEntries(Object.keys(old).map((k) => [k, r?.[k]]));

        assert.equal((await migrator.migrateTo(THIS)).error, undefined);
        const kept = await read(id);
        assert.deepEqual(pick(kept), old, 'every column kept');
        assert.equal(kept!['project_id'], null);
        assert.equal(kept!['last_batch_id'], null);

        // a project's schedule, with the new statuses
        const project = await db
          .insertInto('projects')
          .values({ user_id: user.id, name: 'site.test', created_at: now, reports_count: 0, settings: '{}' })
          .returning('id')
          .executeTakeFirstOrThrow();
        const projectRow = {
          project_id: project.id,
          user_id: user.id,
          every: 'hourly',
          timezone: 'UTC',
          next_run_at: now,
          last_status: 'skipped',
          last_error: 'A crawl of this project was still running (batch 1): this slot was skipped.',
          created_at: now,
          updated_at: now,
        };
        const p = await db
          .insertInto('schedules')
          .values(projectRow)
          .returning('id')
          .executeTakeFirstOrThrow();
        await db.updateTable('schedules').set({ last_status: 'started' }).where('id', '=', p.id).execute();
        // neither, or both: refused
        await assert.rejects(
          db
            .insertInto('schedules')
            .values({ ...projectRow, project_id: null })
            .execute(),
        );
        await assert.rejects(
          db
            .insertInto('schedules')
            .values({ ...projectRow, report_id: report.id })
            .execute(),
        );
        // one per project
        await assert.rejects(db.insertInto('schedules').values(projectRow).execute());
        await assert.rejects(
          db.updateTable('schedules').set({ last_status: 'maybe' }).where('id', '=', p.id).execute(),
        );
        // the project deleted: its schedule goes (the report's stays)
        await db.deleteFrom('projects').where('id', '=', project.id).execute();
        assert.equal(await read(p.id), undefined);
        const again = await db
          .insertInto('projects')
          .values({ user_id: user.id, name: 'site.test', created_at: now, reports_count: 0, settings: '{}' })
          .returning('id')
          .executeTakeFirstOrThrow();
        await db
          .insertInto('schedules')
          .values({ ...projectRow, project_id: again.id })
          .execute();

        // down: the reports' schedules stay as they were, the projects' go
        assert.equal((await migrator.migrateTo(BEFORE)).error, undefined);
        const rows = await db.selectFrom('schedules').select('id').execute();
        assert.deepEqual(
          rows.map((r: { id: number }) => r.id),
          [id],
        );
        assert.deepEqual(pick(await read(id)), old);
        // and up again
        assert.equal((await migrator.migrateTo(THIS)).error, undefined);
        assert.deepEqual(pick(await read(id)), old);
      } finally {
        await h.close();
        await setup.cleanup();
      }
    });
  });
}
