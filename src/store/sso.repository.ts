// Single sign-on (docs/teams.md "Single sign-on"): the sign-ins under way at the identity
// provider (`sso_logins`: keyed by the SHA-256 of their state, used once) and the identities
// that link an issuer's subject to a person (`identities`).
import type { Db } from './database.js';

export interface SsoLoginRow {
  codeVerifier: string;
  nonce: string;
  nextPath: string;
}

export async function insertSsoLogin(
  db: Db,
  s: { hash: string; codeVerifier: string; nonce: string; nextPath: string; now: string; expiresAt: string },
): Promise<void> {
  // the ones long over go as new ones come (each lives 10 minutes)
  await db.deleteFrom('sso_logins').where('expires_at', '<', s.now).execute();
  await db
    .insertInto('sso_logins')
    .values({
      id: s.hash,
      code_verifier: s.codeVerifier,
      nonce: s.nonce,
      next_path: s.nextPath,
      created_at: s.now,
      expires_at: s.expiresAt,
    })
    .execute();
}

/**
 * Uses a sign-in under way once: its verifier, nonce and next path when it exists, is unused
 * and has not expired — marked used in the same statement, so that a replayed or concurrent
 * callback never gets it twice.
 */
export async function useSsoLogin(db: Db, hash: string, now: string): Promise<SsoLoginRow | null> {
  const row = await db
    .updateTable('sso_logins')
    .set({ used_at: now })
    .where('id', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['code_verifier', 'nonce', 'next_path'])
    .executeTakeFirst();
  return row ? { codeVerifier: row.code_verifier, nonce: row.nonce, nextPath: row.next_path } : null;
}

/** The person an issuer's subject is linked to, or null. */
export async function findIdentity(db: Db, issuer: string, subject: string): Promise<number | null> {
  const row = await db
    .selectFrom('identities')
    .select('user_id')
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row ? row.user_id : null;
}

/** Links an issuer's subject to a person (once; a later sign-in updates its email and date). */
export async function linkIdentity(
  db: Db,
  i: { issuer: string; subject: string; userId: number; email: string | null; now: string },
): Promise<void> {
  await db
    .insertInto('identities')
    .values({
      issuer: i.issuer,
      subject: i.subject,
      user_id: i.userId,
      email: i.email,
      created_at: i.now,
      last_used_at: i.now,
    })
    .onConflict((oc) =>
      oc.columns(['issuer', 'subject']).doUpdateSet({ email: i.email, last_used_at: i.now }),
    )
    .execute();
}
