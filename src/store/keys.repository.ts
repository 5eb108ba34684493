// api_keys: a key is stored as its SHA-256 hash and a short prefix for listing; never the secret.
import type { Db } from './database.js';
import { toIso, toIsoOrNull } from './sql-helpers.js';

export interface KeyRow {
  id: number;
  userId: number;
  userName: string;
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
const parseProjects = (text: string | null): string[] | null =>
  text === null ? null : (JSON.parse(text) as string[]);

function listQuery(db: Db) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.user_id',
      'users.name as user_name',
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

/** The key whose hash this is (the unique index on hash makes it one probe). */
export async function findKeyByHash(db: Db, hash: string): Promise<KeyAuthRow | null> {
  const row = await db
    .selectFrom('api_keys')
    .select(['id', 'user_id', 'hash', 'last_used_at', 'revoked_at', 'scopes', 'projects', 'expires_at'])
    .where('hash', '=', hash)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    hash: row.hash,
    lastUsedAt: toIsoOrNull(row.last_used_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    scopes: parseScopes(row.scopes),
    projects: parseProjects(row.projects),
    expiresAt: toIsoOrNull(row.expires_at),
  };
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

export async function listKeys(db: Db, userId?: number): Promise<KeyRow[]> {
  let q = listQuery(db);
  if (userId !== undefined) q = q.where('api_keys.user_id', '=', userId);
  const rows = await q.orderBy('api_keys.id').execute();
  return rows.map(toKey);
}

/** Sets revoked_at unless already set; false for an unknown key. */
export async function revokeKey(db: Db, id: number, now: string): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return false;
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (res.numUpdatedRows > 0n) return true;
  const exists = await db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst();
  return exists !== undefined;
}
