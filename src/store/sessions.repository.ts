// sessions: the dashboard's signed-in sessions (the cookie carries a random id; the row is keyed
// by its SHA-256), password reset links and second-factor recovery codes (docs/teams.md
// "Signing in"). Every secret here is stored as a hash only.
import type { Db } from './database.js';
import { toIso, toIsoOrNull } from './sql-helpers.js';

export interface SessionRow {
  userId: number;
  orgId: number | null;
  keyId: number | null;
  stage: 'active' | 'totp';
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  /** the person's disabled_at */
  userDisabledAt: string | null;
}

export async function insertSession(
  db: Db,
  s: {
    hash: string;
    userId: number;
    orgId: number | null;
    keyId: number | null;
    stage: 'active' | 'totp';
    now: string;
    expiresAt: string;
  },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: s.hash,
      user_id: s.userId,
      org_id: s.orgId,
      key_id: s.keyId,
      stage: s.stage,
      created_at: s.now,
      expires_at: s.expiresAt,
    })
    .execute();
}

export async function findSession(db: Db, hash: string): Promise<SessionRow | null> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.user_id',
      'sessions.org_id',
      'sessions.key_id',
      'sessions.stage',
      'sessions.created_at',
      'sessions.expires_at',
      'sessions.revoked_at',
      'users.disabled_at',
    ])
    .where('sessions.id', '=', hash)
    .executeTakeFirst();
  if (!row) return null;
  return {
    userId: row.user_id,
    orgId: row.org_id,
    keyId: row.key_id,
    stage: row.stage,
    createdAt: toIso(row.created_at),
    expiresAt: toIso(row.expires_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    userDisabledAt: toIsoOrNull(row.disabled_at),
  };
}

export async function updateSession(
  db: Db,
  hash: string,
  change: { orgId?: number; stage?: 'active' | 'totp'; revokedAt?: string },
): Promise<void> {
  const set: Record<string, unknown> = {};
  if (change.orgId !== undefined) set.org_id = change.orgId;
  if (change.stage !== undefined) set.stage = change.stage;
  if (change.revokedAt !== undefined) set.revoked_at = change.revokedAt;
  await db.updateTable('sessions').set(set).where('id', '=', hash).where('revoked_at', 'is', null).execute();
}

/** Ends every session of a person (but `except`, the one making the change); the count ended. */
export async function revokeUserSessions(
  db: Db,
  userId: number,
  now: string,
  except?: string,
): Promise<number> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (except !== undefined) q = q.where('id', '!=', except);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

// --- password reset links ------------------------------------------------------------------

export async function insertPasswordReset(
  db: Db,
  r: { hash: string; userId: number; now: string; expiresAt: string },
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({ id: r.hash, user_id: r.userId, created_at: r.now, expires_at: r.expiresAt })
    .execute();
}

/**
 * Uses a reset link once: the person's id when the link exists, is unused and has not expired
 * (and marks it used in the same statement, so that two concurrent uses cannot both win).
 */
export async function usePasswordReset(db: Db, hash: string, now: string): Promise<number | null> {
  const row = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('id', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row ? row.user_id : null;
}

/** A link's state without using it (the form's GET): 'ok', 'used', 'expired' or null (unknown). */
export async function peekPasswordReset(
  db: Db,
  hash: string,
  now: string,
): Promise<'ok' | 'used' | 'expired' | null> {
  const row = await db
    .selectFrom('password_resets')
    .select(['used_at', 'expires_at'])
    .where('id', '=', hash)
    .executeTakeFirst();
  if (!row) return null;
  if (row.used_at !== null) return 'used';
  return toIso(row.expires_at) > now ? 'ok' : 'expired';
}

// --- recovery codes ------------------------------------------------------------------------

export async function replaceRecoveryCodes(db: Db, userId: number, hashes: string[]): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length > 0)
    await db
      .insertInto('recovery_codes')
      .values(hashes.map((hash) => ({ user_id: userId, hash })))
      .execute();
}

/** Uses a recovery code once: true when it was the person's and unused. */
export async function useRecoveryCode(db: Db, userId: number, hash: string, now: string): Promise<boolean> {
  const res = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}
