// api_keys: a key is stored as its SHA-256 hash and a short prefix for listing; never the secret.
// A key belongs to a member (user_id) within an organisation (org_id): docs/teams.md.
import type { Db, MembershipsTable } from './database.js';
import { parseProjects, toIso, toIsoOrNull } from './sql-helpers.js';

export interface KeyRow {
  id: number;
  userId: number;
  userName: string;
  /** the organisation the key acts in */
  orgId: number;
  orgName: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  scopes: KeyScopeName[];
  projects: string[] | null;
  expiresAt: string | null;
}

export interface KeyAuthRow {
  id: number;
  userId: number;
  orgId: number;
  /** the member's role in the organisation now (a key never does more than it allows) */
  role: MembershipsTable['role'];
  /** the member's own project limit (a limited viewer); null: every project */
  memberProjects: string[] | null;
  /** the member's name (a dashboard session shows it) */
  userName: string;
  /** the user is disabled (the instance admin's page): the key does nothing */
  disabled: boolean;
  hash: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  scopes: KeyScopeName[];
  projects: string[] | null;
  expiresAt: string | null;
}

type KeyScopeName = 'read' | 'write';

/** 'read,write' → ['read', 'write'] (unknown names are dropped: a key never gains a scope) */
const parseScopes = (text: string): KeyScopeName[] =>
  text.split(',').filter((s): s is KeyScopeName => s === 'read' || s === 'write');
function listQuery(db: Db) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .innerJoin('organizations', 'organizations.id', 'api_keys.org_id')
    .select([
      'api_keys.id',
      'api_keys.user_id',
      'users.name as user_name',
      'api_keys.org_id',
      'organizations.name as org_name',
      'api_keys.prefix',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'api_keys.revoked_at',
      'api_keys.scopes',
      'api_keys.projects',
      'api_keys.expires_at',
    ]);
}

type ListRow = Awaited<ReturnType<ReturnType<typeof listQuery>['executeTakeFirstOrThrow']>>;

function toKey(row: ListRow): KeyRow {
  return {
    id: row.id,
    userId: row.user_id,
    userName: row.user_name,
    orgId: row.org_id,
    orgName: row.org_name,
    prefix: row.prefix,
    createdAt: toIso(row.created_at),
    lastUsedAt: toIsoOrNull(row.last_used_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    scopes: parseScopes(row.scopes),
    projects: parseProjects(row.projects),
    expiresAt: toIsoOrNull(row.expires_at),
  };
}

export async function insertKey(
  db: Db,
  key: {
    userId: number;
    orgId: number;
    prefix: string;
    hash: string;
    createdAt: string;
    scopes?: KeyScopeName[];
    projects?: string[] | null;
    expiresAt?: string | null;
  },
): Promise<number> {
  const row = await db
    .insertInto('api_keys')
    .values({
      user_id: key.userId,
      org_id: key.orgId,
      prefix: key.prefix,
      hash: key.hash,
      created_at: key.createdAt,
      ...(key.scopes ? { scopes: key.scopes.join(',') } : {}),
      projects: key.projects ? JSON.stringify(key.projects) : null,
      expires_at: key.expiresAt ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findKeyById(db: Db, id: number): Promise<KeyRow | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const row = await listQuery(db).where('api_keys.id', '=', id).executeTakeFirst();
  return row ? toKey(row) : null;
}

function authQuery(db: Db) {
  return db
    .selectFrom('api_keys')
    .innerJoin('memberships', (j) =>
      j
        .onRef('memberships.org_id', '=', 'api_keys.org_id')
        .onRef('memberships.user_id', '=', 'api_keys.user_id'),
    )
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.user_id',
      'api_keys.org_id',
      'memberships.role',
      'memberships.projects as member_projects',
      'users.name as user_name',
      'users.disabled_at',
      'api_keys.hash',
      'api_keys.last_used_at',
      'api_keys.revoked_at',
      'api_keys.scopes',
      'api_keys.projects',
      'api_keys.expires_at',
    ]);
}

type AuthRow = Awaited<ReturnType<ReturnType<typeof authQuery>['executeTakeFirstOrThrow']>>;

const toAuthRow = (row: AuthRow): KeyAuthRow => ({
  id: row.id,
  userId: row.user_id,
  orgId: row.org_id,
  role: row.role,
  memberProjects: parseProjects(row.member_projects),
  userName: row.user_name,
  disabled: row.disabled_at !== null,
  hash: row.hash,
  lastUsedAt: toIsoOrNull(row.last_used_at),
  revokedAt: toIsoOrNull(row.revoked_at),
  scopes: parseScopes(row.scopes),
  projects: parseProjects(row.projects),
  expiresAt: toIsoOrNull(row.expires_at),
});

/**
 * The key whose hash this is (the unique index on hash makes it one probe), with its member's
 * role and project limit now: a key whose member has left its organisation is no key (null).
 */
export async function findKeyByHash(db: Db, hash: string): Promise<KeyAuthRow | null> {
  const row = await authQuery(db).where('api_keys.hash', '=', hash).executeTakeFirst();
  return row ? toAuthRow(row) : null;
}

/** As findKeyByHash, by id (a dashboard session names the key it was opened with). */
export async function findKeyAuthById(db: Db, id: number): Promise<KeyAuthRow | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const row = await authQuery(db).where('api_keys.id', '=', id).executeTakeFirst();
  return row ? toAuthRow(row) : null;
}

/** Records a use; the `before` guard makes concurrent requests write at most once per interval. */
export async function touchKey(db: Db, id: number, now: string, before: string): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', before)]))
    .execute();
}

/** Every key, or one user's, or one user's within one organisation; oldest first. */
export async function listKeys(db: Db, userId?: number, orgId?: number): Promise<KeyRow[]> {
  let q = listQuery(db);
  if (userId !== undefined) q = q.where('api_keys.user_id', '=', userId);
  if (orgId !== undefined) q = q.where('api_keys.org_id', '=', orgId);
  const rows = await q.orderBy('api_keys.id').execute();
  return rows.map(toKey);
}

/** Sets revoked_at unless already set; false for an unknown key. */
/**
 * Revokes a key: `revoked` when this call revoked it, `already` when it was revoked before
 * (the first revocation's date is kept), null when there is no such key.
 */
export async function revokeKey(db: Db, id: number, now: string): Promise<'revoked' | 'already' | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (res.numUpdatedRows > 0n) return 'revoked';
  const exists = await db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
  return exists !== undefined ? 'already' : null;
}
