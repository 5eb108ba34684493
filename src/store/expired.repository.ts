// Rows that only pile up once they have expired or ended (docs/teams.md "Retention"): dashboard
// sessions, password reset links and single sign-ons under way are deleted a day after they
// expired or ended; invitations and share links — which their lists still show as expired,
// revoked or accepted — and the instance admin's log after the audit log's retention.
import type { Db } from './database.js';

export interface ExpiredCounts {
  sessions: number;
  passwordResets: number;
  ssoLogins: number;
  invitations: number;
  shares: number;
  /** the instance admin's log (instance_log), kept as long as the audit log */
  instanceLog: number;
}

/**
 * Deletes sessions, reset links and SSO sign-ins expired, ended or used before `endedBefore`,
 * and invitations and share links expired, revoked or accepted, and instance log entries, before
 * `listedBefore` (ISO).
 */
export async function pruneExpiredRows(
  db: Db,
  cut: { endedBefore: string; listedBefore: string },
): Promise<ExpiredCounts> {
  const { endedBefore: ended, listedBefore: listed } = cut;
  const n = (r: { numDeletedRows: bigint }) => Number(r.numDeletedRows);
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<', ended), eb('revoked_at', '<', ended)]))
    .executeTakeFirst();
  const passwordResets = await db
    .deleteFrom('password_resets')
    .where((eb) => eb.or([eb('expires_at', '<', ended), eb('used_at', '<', ended)]))
    .executeTakeFirst();
  const ssoLogins = await db
    .deleteFrom('sso_logins')
    .where((eb) => eb.or([eb('expires_at', '<', ended), eb('used_at', '<', ended)]))
    .executeTakeFirst();
  const invitations = await db
    .deleteFrom('invitations')
    .where((eb) =>
      eb.or([eb('expires_at', '<', listed), eb('revoked_at', '<', listed), eb('accepted_at', '<', listed)]),
    )
    .executeTakeFirst();
  const shares = await db
    .deleteFrom('shares')
    .where((eb) => eb.or([eb('expires_at', '<', listed), eb('revoked_at', '<', listed)]))
    .executeTakeFirst();
  const instanceLog = await db.deleteFrom('instance_log').where('at', '<', listed).executeTakeFirst();
  return {
    instanceLog: n(instanceLog),
    sessions: n(sessions),
    passwordResets: n(passwordResets),
    ssoLogins: n(ssoLogins),
    invitations: n(invitations),
    shares: n(shares),
  };
}
