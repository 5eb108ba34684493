// users: accounts and their per-user counters (kept in the same transaction as the rows they count).
import { arg, compiledOnce } from './compiled.js';
import type { Db } from './database.js';
import { toIso, toNumber } from './sql-helpers.js';

export interface UserRow {
  id: number;
  name: string;
  createdAt: string;
}

export interface UserCounters {
  projects: number;
  reports: number;
  good: number;
  decent: number;
  bad: number;
}

const columns = ['id', 'name', 'created_at'] as const;

function toUser(row: { id: number; name: string; created_at: Date | string }): UserRow {
  return { id: row.id, name: row.name, createdAt: toIso(row.created_at) };
}

export async function insertUser(db: Db, name: string, now: string): Promise<UserRow> {
  const row = await db
    .insertInto('users')
    .values({ name, created_at: now })
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

const countersQuery = compiledOnce((db) =>
  db
    .selectFrom('users')
    .select(['projects_count', 'reports_count', 'good_count', 'decent_count', 'bad_count'])
    .where('id', '=', arg<number>(0)),
);

export async function getUserCounters(db: Db, userId: number): Promise<UserCounters> {
  const [row] = await countersQuery(db, [userId]);
  return {
    projects: toNumber(row?.projects_count),
    reports: toNumber(row?.reports_count),
    good: toNumber(row?.good_count),
    decent: toNumber(row?.decent_count),
    bad: toNumber(row?.bad_count),
  };
}

/** Adds the deltas to a user's counters (one UPDATE; call inside the transaction that changed the rows). */
const counterColumns = {
  projects: 'projects_count',
  reports: 'reports_count',
  good: 'good_count',
  decent: 'decent_count',
  bad: 'bad_count',
} as const;

export async function adjustUserCounters(
  db: Db,
  userId: number,
  delta: Partial<UserCounters>,
): Promise<void> {
  const entries = (
    Object.entries(counterColumns) as [keyof UserCounters, (typeof counterColumns)[keyof UserCounters]][]
  ).filter(([key]) => (delta[key] ?? 0) !== 0);
  if (entries.length === 0) return;
  await db
    .updateTable('users')
    .set((eb) => ({
      ...Object.fromEntries(entries.map(([key, column]) => [column, eb(column, '+', delta[key] ?? 0)])),
      // every insert, delete or result change of a report changes a counter: a new version
      reports_version: eb('reports_version', '+', 1),
    }))
    .where('id', '=', userId)
    .execute();
}

/** A new version of a user's reports without a counter change (a re-audit moves generated_at). */
export async function bumpReportsVersion(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ reports_version: eb('reports_version', '+', 1) }))
    .where('id', '=', userId)
    .execute();
}

/** The report counters and the version of the set they count, read together (one row). */
const reportsStateQuery = compiledOnce((db) =>
  db
    .selectFrom('users')
    .select(['reports_version', 'reports_count', 'good_count', 'decent_count', 'bad_count'])
    .where('id', '=', arg<number>(0)),
);

export async function getReportsState(
  db: Db,
  userId: number,
): Promise<{ version: number; reports: number; good: number; decent: number; bad: number } | null> {
  const [row] = await reportsStateQuery(db, [userId]);
  if (!row) return null;
  return {
    version: toNumber(row.reports_version),
    reports: toNumber(row.reports_count),
    good: toNumber(row.good_count),
    decent: toNumber(row.decent_count),
    bad: toNumber(row.bad_count),
  };
}

/**
 * The version of a user's set of reports (ids, projects, results): it changes in the same
 * transaction as every change of the report counters, so anything computed from the reports'
 * url/project/result at one version (a search total) is exact for as long as it is current.
 */
export async function getReportsVersion(db: Db, userId: number): Promise<number | null> {
  const row = await db
    .selectFrom('users')
    .select('reports_version')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row ? toNumber(row.reports_version) : null;
}
