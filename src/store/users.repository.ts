// users: the people (docs/teams.md); what they may do in an organisation is their membership
// (memberships.repository.ts), what an organisation owns is counted in organizations.repository.ts.
import type { ExpressionBuilder } from 'kysely';
import { dialectOf, type Database, type Db } from './database.js';
import { toIso, toIsoOrNull } from './sql-helpers.js';

export interface UserRow {
  id: number;
  name: string;
  createdAt: string;
  /** the instance admin */
  isAdmin: boolean;
  disabledAt: string | null;
  /** lower-case; null when none was given */
  email: string | null;
  hasPassword: boolean;
  /** the TOTP second factor is on */
  totpEnabled: boolean;
}

const columns = [
  'id',
  'name',
  'created_at',
  'is_admin',
  'disabled_at',
  'email',
  'totp_enabled_at',
  (eb: ExpressionBuilder<Database, 'users'>) =>
    eb.case().when('password_hash', 'is not', null).then(1).else(0).end().as('has_password'),
] as const;

function toUser(row: {
  id: number;
  name: string;
  created_at: Date | string;
  is_admin: boolean | number;
  disabled_at: Date | string | null;
  email: string | null;
  totp_enabled_at: Date | string | null;
  has_password: number | string;
}): UserRow {
  return {
    id: row.id,
    name: row.name,
    createdAt: toIso(row.created_at),
    isAdmin: Boolean(row.is_admin),
    disabledAt: toIsoOrNull(row.disabled_at),
    email: row.email,
    hasPassword: Number(row.has_password) === 1,
    totpEnabled: row.totp_enabled_at !== null,
  };
}

export async function insertUser(
  db: Db,
  name: string,
  now: string,
  options: { isAdmin?: boolean; email?: string | null; passwordHash?: string | null } = {},
): Promise<UserRow> {
  const row = await db
    .insertInto('users')
    .values({
      name,
      created_at: now,
      email: options.email ?? null,
      password_hash: options.passwordHash ?? null,
      ...(options.isAdmin ? { is_admin: dialectOf(db) === 'postgres' ? true : 1 } : {}),
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toUser(row);
}

export async function findUserByName(db: Db, name: string): Promise<UserRow | null> {
  const row = await db.selectFrom('users').select(columns).where('name', '=', name).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function findUserById(db: Db, id: number): Promise<UserRow | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const row = await db.selectFrom('users').select(columns).where('id', '=', id).executeTakeFirst();
  return row ? toUser(row) : null;
}

export async function listUsers(db: Db): Promise<UserRow[]> {
  const rows = await db.selectFrom('users').select(columns).orderBy('id').execute();
  return rows.map(toUser);
}

/** How many people there are (the first one made is the instance admin). */
export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const row = await db.selectFrom('users').select(columns).where('email', '=', email).executeTakeFirst();
  return row ? toUser(row) : null;
}

/** A person's secrets for signing in: the password hash and the encrypted TOTP secret. */
export async function findCredentials(
  db: Db,
  id: number,
): Promise<{ passwordHash: string | null; totpSecret: string | null; totpEnabled: boolean } | null> {
  const row = await db
    .selectFrom('users')
    .select(['password_hash', 'totp_secret', 'totp_enabled_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row
    ? {
        passwordHash: row.password_hash,
        totpSecret: row.totp_secret,
        totpEnabled: row.totp_enabled_at !== null,
      }
    : null;
}

/** Changes a person's sign-in facts (only the fields given). */
export async function updateUser(
  db: Db,
  id: number,
  change: {
    email?: string | null;
    passwordHash?: string | null;
    totpSecret?: string | null;
    totpEnabledAt?: string | null;
    disabledAt?: string | null;
    isAdmin?: boolean;
  },
): Promise<boolean> {
  const set: Record<string, unknown> = {};
  if (change.email !== undefined) set.email = change.email;
  if (change.passwordHash !== undefined) set.password_hash = change.passwordHash;
  if (change.totpSecret !== undefined) set.totp_secret = change.totpSecret;
  if (change.totpEnabledAt !== undefined) set.totp_enabled_at = change.totpEnabledAt;
  if (change.disabledAt !== undefined) set.disabled_at = change.disabledAt;
  if (change.isAdmin !== undefined)
    set.is_admin = dialectOf(db) === 'postgres' ? change.isAdmin : change.isAdmin ? 1 : 0;
  if (Object.keys(set).length === 0) return true;
  const res = await db.updateTable('users').set(set).where('id', '=', id).executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/**
 * Records the TOTP time step a code was accepted for, unless one as late was already: false
 * when the step (or a later one) was used (a replayed code).
 */
export async function claimTotpStep(db: Db, id: number, step: number): Promise<boolean> {
  const res = await db
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}
