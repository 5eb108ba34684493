// users: the people (docs/teams.md); what they may do in an organisation is their membership
// (memberships.repository.ts), what an organisation owns is counted in organizations.repository.ts.
import { dialectOf, type Db } from './database.js';
import { toIso, toIsoOrNull } from './sql-helpers.js';

export interface UserRow {
  id: number;
  name: string;
  createdAt: string;
  /** the instance admin */
  isAdmin: boolean;
  disabledAt: string | null;
}

const columns = ['id', 'name', 'created_at', 'is_admin', 'disabled_at'] as const;

function toUser(row: {
  id: number;
  name: string;
  created_at: Date | string;
  is_admin: boolean | number;
  disabled_at: Date | string | null;
}): UserRow {
  return {
    id: row.id,
    name: row.name,
    createdAt: toIso(row.created_at),
    isAdmin: Boolean(row.is_admin),
    disabledAt: toIsoOrNull(row.disabled_at),
  };
}

export async function insertUser(
  db: Db,
  name: string,
  now: string,
  options: { isAdmin?: boolean } = {},
): Promise<UserRow> {
  const row = await db
    .insertInto('users')
    .values({
      name,
      created_at: now,
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
