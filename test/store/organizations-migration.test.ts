// The organisations migration (2026-11-30T02) on a database of the previous release (every
// dialect): two users with keys (one read-only and limited to a project, one revoked), a
// report and its project. After it every user is the owner of an organisation of their own
// (same id and name) that owns all they owned, with its counters; the first user is the
// instance admin; every key works unchanged (its scopes, projects, revocation) and acts in
// its user's organisation; a user made afterwards gets ids of their own. Down restores the
// previous shape with the same rows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Migrator } from 'kysely';
import { createDb } from '../../src/store/database.js';
import { migrations } from '../../src/store/migrations/index.js';
import { createServices } from '../../src/services/index.js';
import { embeddedQueue } from '../../src/jobs/index.js';
import { hashApiKey } from '../../src/services/shared/secrets.js';
import { cannedAudit } from '../helpers/factories.js';
import { testAnalyze, testServicesConfig } from '../helpers/config.js';
import { dialects } from '../helpers/db.js';

const BEFORE = '2026-11-29T05-project-schedules';
const provider = { getMigrations: () => Promise.resolve(migrations) };
const ANN_KEY = 'pg_annsfirstkeyfromthepreviousrelease0001';
const ANN_READ = 'pg_annsreadonlykeyfromthepreviousrelease2';
const BEN_REVOKED = 'pg_bensrevokedkeyfromthepreviousrelease03';

for (const dialect of dialects) {
  describe(`organizations migration [${dialect.name}]`, { skip: dialect.skip }, () => {
    test('every user owns an organisation of their own with all they owned; keys work unchanged; down restores', async () => {
      const setup = await dialect.setup();
      const h = createDb(setup.databaseUrl);
      try {
        const migrator = new Migrator({ db: h.db, provider });
        assert.equal((await migrator.migrateTo(BEFORE)).error, undefined);
        const now = '2026-11-20T10:00:00.000Z';
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        const db = h.db as any;
        const user = (name: string, counts: object) =>
          db
            .insertInto('users')
            .values({ name, created_at: now, ...counts })
            .returning('id')
            .executeTakeFirstOrThrow();
        const ann = await user('ann', {
          reports_count: 1,
          good_count: 1,
          projects_count: 1,
          reports_version: 3,
        });
        const ben = await user('ben', {});
        const key = (userId: number, secret: string, extra: object) =>
          db
            .insertInto('api_keys')
            .values({
              user_id: userId,
              prefix: secret.slice(0, 9),
              hash: hashApiKey(secret),
              created_at: now,
              ...extra,
            })
            .execute();
        await key(ann.id, ANN_KEY, {});
        await key(ann.id, ANN_READ, { scopes: 'read', projects: JSON.stringify(['canned.test']) });
        await key(ben.id, BEN_REVOKED, { revoked_at: now });
        const audit = cannedAudit('http://canned.test/');
        await db
          .insertInto('projects')
          .values({ user_id: ann.id, name: 'canned.test', created_at: now, reports_count: 1 })
          .execute();
        const report = await db
          .insertInto('reports')
          .values({
            user_id: ann.id,
            url: 'http://canned.test/',
            final_url: 'http://canned.test/',
            page_key: 'http://canned.test/',
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

        assert.equal((await migrator.migrateToLatest()).error, undefined);

        const orgs = await db.selectFrom('organizations').selectAll().orderBy('id').execute();
        assert.deepEqual(
          orgs.map((o: { id: number; name: string; reports_count: number; reports_version: number }) => [
            o.id,
            o.name,
            Number(o.reports_count),
            Number(o.reports_version),
          ]),
          [
            [ann.id, 'ann', 1, 3],
            [ben.id, 'ben', 0, 0],
          ],
        );
        const people = await db.selectFrom('users').selectAll().orderBy('id').execute();
        assert.deepEqual(
          people.map((u: { id: number; name: string; is_admin: unknown }) => [
            u.id,
            u.name,
            Boolean(u.is_admin),
          ]),
          [
            [ann.id, 'ann', true],
            [ben.id, 'ben', false],
          ],
        );
        const memberships = await db.selectFrom('memberships').selectAll().orderBy('org_id').execute();
        assert.deepEqual(
          memberships.map((m: { org_id: number; user_id: number; role: string }) => [
            m.org_id,
            m.user_id,
            m.role,
          ]),
          [
            [ann.id, ann.id, 'owner'],
            [ben.id, ben.id, 'owner'],
          ],
        );
        const owned = await db.selectFrom('reports').select(['id', 'org_id']).execute();
        assert.deepEqual(owned, [{ id: report.id, org_id: ann.id }]);

        // the keys, through the services of this release
        const services = createServices({
          db: h.db,
          analyze: testAnalyze,
          config: testServicesConfig(),
          queue: embeddedQueue(h.db),
        });
        const a = await services.auth.authenticate(ANN_KEY);
        assert.deepEqual(a && { ...a, keyId: 0 }, {
          orgId: ann.id,
          memberId: ann.id,
          role: 'owner',
          keyId: 0,
          scopes: ['read', 'write'],
          projects: null,
        });
        const r = await services.auth.authenticate(ANN_READ);
        assert.deepEqual([r?.scopes, r?.projects], [['read'], ['canned.test']]);
        assert.equal(await services.auth.authenticate(BEN_REVOKED), null);
        const listed = await services.reports.list(a!, {});
        assert.deepEqual(
          listed.items.map((x) => x.id),
          [report.id],
        );
        // a user made now: ids of their own, an organisation of their own, not the admin
        const cat = await services.users.create('cat');
        assert.ok(cat.user.id > ben.id && cat.organization.id > ben.id);
        assert.equal((await services.users.get(cat.user.id))?.name, 'cat');
        const catAuth = await services.auth.authenticate(cat.key.key);
        assert.equal(catAuth?.orgId, cat.organization.id);
        assert.equal((await services.reports.list(catAuth!, {})).total, 0);

        // down: the previous shape, the same rows (cat's too: an owner of its own)
        assert.equal((await migrator.migrateTo(BEFORE)).error, undefined);
        const back = await db
          .selectFrom('users')
          .select(['id', 'name', 'reports_count'])
          .orderBy('id')
          .execute();
        assert.deepEqual(
          back.map((u: { id: number; name: string; reports_count: number }) => [
            u.id,
            u.name,
            Number(u.reports_count),
          ]),
          [
            [ann.id, 'ann', 1],
            [ben.id, 'ben', 0],
            [cat.organization.id, 'cat', 0],
          ],
        );
        const keys = await db.selectFrom('api_keys').select(['user_id', 'hash']).orderBy('id').execute();
        assert.deepEqual(
          keys.slice(0, 3).map((k: { user_id: number; hash: string }) => [k.user_id, k.hash]),
          [
            [ann.id, hashApiKey(ANN_KEY)],
            [ann.id, hashApiKey(ANN_READ)],
            [ben.id, hashApiKey(BEN_REVOKED)],
          ],
        );
        const reports = await db.selectFrom('reports').select(['id', 'user_id']).execute();
        assert.deepEqual(reports, [{ id: report.id, user_id: ann.id }]);
      } finally {
        await h.close();
        await setup.cleanup();
      }
    });
  });
}
