// What only piles up is pruned (docs/teams.md "Retention"), on SQLite and PostgreSQL: the hourly
// recurring task deletes sessions, reset links and SSO sign-ins a day after they expired, ended
// or were used, and invitations, share links and the instance log after the audit log's
// retention; live ones stay
// (a signed-in browser keeps its session through the prune).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { auditLogPrune } from '../../src/jobs/kinds/audit-log-prune.js';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { buildUser, type TestUser } from '../helpers/factories.js';

const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const hash = () => randomBytes(32).toString('hex');

describeEachDialect('retention of expired rows', (dialect) => {
  let t: TestApp;
  let acme: TestUser;

  before(async () => {
    t = await buildTestApp(dialect, { logLevel: 'silent', config: { auditLogRetentionDays: 30 } });
    acme = await buildUser(t.services, 'retention-acme');
  });
  after(() => t?.close());

  test('the hourly task deletes ended sessions, used or expired links; keeps live ones', async () => {
    const db = t.database.db;
    // a real session, opened by signing in: it must survive the prune
    const browser = new Browser(t.app);
    assert.equal((await browser.login(acme.key)).statusCode, 303);
    const ids: Record<string, string> = {};
    const session = (name: string, row: { expires: number; revoked?: number }) => {
      ids[name] = hash();
      return db
        .insertInto('sessions')
        .values({
          id: ids[name],
          user_id: acme.userId,
          org_id: acme.id,
          key_id: null,
          stage: 'active',
          created_at: at(-40),
          expires_at: at(row.expires),
          revoked_at: row.revoked === undefined ? null : at(row.revoked),
        })
        .execute();
    };
    await session('expired2d', { expires: -2 });
    await session('expiredNow', { expires: -0.1 }); // expired less than a day ago: kept
    await session('signedOut2d', { expires: 5, revoked: -2 });
    await session('live', { expires: 5 });
    const reset = (name: string, expires: number, used: number | null) => {
      ids[name] = hash();
      return db
        .insertInto('password_resets')
        .values({
          id: ids[name],
          user_id: acme.userId,
          created_at: at(-3),
          expires_at: at(expires),
          used_at: used === null ? null : at(used),
        })
        .execute();
    };
    await reset('resetExpired', -2, null);
    await reset('resetUsed', 0.5, -1.5);
    await reset('resetLive', 0.5, null);
    const sso = (name: string, expires: number) => {
      ids[name] = hash();
      return db
        .insertInto('sso_logins')
        .values({
          id: ids[name],
          code_verifier: 'v',
          nonce: 'n',
          next_path: '/dashboard',
          created_at: at(expires - 0.01),
          expires_at: at(expires),
        })
        .execute();
    };
    await sso('ssoOld', -2);
    await sso('ssoLive', 0.005);
    const invitation = (
      email: string,
      expires: number,
      extra: { revoked?: number; accepted?: number } = {},
    ) =>
      db
        .insertInto('invitations')
        .values({
          org_id: acme.id,
          email,
          role: 'member',
          projects: null,
          token_hash: hash(),
          created_by: acme.userId,
          created_at: at(expires - 7),
          expires_at: at(expires),
          revoked_at: extra.revoked === undefined ? null : at(extra.revoked),
          accepted_at: extra.accepted === undefined ? null : at(extra.accepted),
        })
        .execute();
    await invitation('expired-long-ago@example.com', -31);
    await invitation('revoked-long-ago@example.com', 10, { revoked: -31 });
    await invitation('accepted-long-ago@example.com', 10, { accepted: -31 });
    await invitation('expired-lately@example.com', -3); // still listed as expired
    await invitation('pending@example.com', 5);
    const share = (project: string, expires: number, revoked?: number) =>
      db
        .insertInto('shares')
        .values({
          org_id: acme.id,
          token_hash: hash(),
          report_id: null,
          project,
          created_by: acme.userId,
          created_at: at(expires - 7),
          expires_at: at(expires),
          revoked_at: revoked === undefined ? null : at(revoked),
        })
        .execute();
    await share('old.example', -31);
    await share('revoked-old.example', 3, -40);
    await share('lately.example', -2);
    await share('live.example', 5);

    for (const [days, action] of [
      [-31, 'user.disabled'],
      [-2, 'user.enabled'],
    ] as const)
      await db
        .insertInto('instance_log')
        .values({
          at: at(days),
          actor: 'cli',
          action,
          target_type: 'user',
          target_id: String(acme.userId),
          changes: '{}',
        })
        .execute();

    const lines: unknown[] = [];
    const logger = { info: (o: unknown) => lines.push(o), debug() {}, warn() {}, error() {} };
    await auditLogPrune().run({ services: t.services, log: logger as never }, new AbortController().signal);

    const sessionIds = (await db.selectFrom('sessions').select('id').execute()).map((r) => r.id);
    assert.ok(!sessionIds.includes(ids.expired2d!), 'a session expired 2 days ago is deleted');
    assert.ok(!sessionIds.includes(ids.signedOut2d!), 'a session ended 2 days ago is deleted');
    assert.ok(sessionIds.includes(ids.expiredNow!), 'a session expired within the day is kept');
    assert.ok(sessionIds.includes(ids.live!));
    const resets = (await db.selectFrom('password_resets').select('id').execute()).map((r) => r.id);
    assert.deepEqual(resets, [ids.resetLive]);
    const ssos = (await db.selectFrom('sso_logins').select('id').execute()).map((r) => r.id);
    assert.deepEqual(ssos, [ids.ssoLive]);
    const emails = (await db.selectFrom('invitations').select('email').orderBy('email').execute()).map(
      (r) => r.email,
    );
    assert.deepEqual(emails, ['expired-lately@example.com', 'pending@example.com']);
    const projects = (await db.selectFrom('shares').select('project').orderBy('project').execute()).map(
      (r) => r.project,
    );
    assert.deepEqual(projects, ['lately.example', 'live.example']);
    assert.deepEqual(lines, [
      {
        deleted: { instanceLog: 1, sessions: 2, passwordResets: 2, ssoLogins: 1, invitations: 3, shares: 2 },
      },
    ]);

    const kept = await db.selectFrom('instance_log').select('action').execute();
    assert.deepEqual(kept, [{ action: 'user.enabled' }]);

    // the signed-in browser's session was not touched
    const page = await browser.get('/dashboard');
    assert.equal(page.statusCode, 200);
    // a second run finds nothing more (several workers run it)
    assert.deepEqual(await t.services.auditLog.pruneExpired(), {
      sessions: 0,
      passwordResets: 0,
      ssoLogins: 0,
      invitations: 0,
      shares: 0,
      instanceLog: 0,
    });
  });
});
