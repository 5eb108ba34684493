// memberships: a person's role in an organisation (docs/teams.md), and for a viewer limited to
// named projects, those projects (JSON array; null: every project).
import type { Db, MembershipsTable } from './database.js';
import { parseProjects, toIso } from './sql-helpers.js';

export type RoleName = MembershipsTable['role'];

export interface MembershipRow {
  orgId: number;
  orgName: string;
  userId: number;
  userName: string;
  role: RoleName;
  projects: string[] | null;
  createdAt: string;
}

function query(db: Db) {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .innerJoin('organizations', 'organizations.id', 'memberships.org_id')
    .select([
      'memberships.org_id',
      'organizations.name as org_name',
      'memberships.user_id',
      'users.name as user_name',
      'memberships.role',
      'memberships.projects',
      'memberships.created_at',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof query>['executeTakeFirstOrThrow']>>;

const toMembership = (row: Row): MembershipRow => ({
  orgId: row.org_id,
  orgName: row.org_name,
  userId: row.user_id,
  userName: row.user_name,
  role: row.role,
  projects: parseProjects(row.projects),
  createdAt: toIso(row.created_at),
});

export async function insertMembership(
  db: Db,
  m: { orgId: number; userId: number; role: RoleName; projects: string[] | null; createdAt: string },
): Promise<void> {
  await db
    .insertInto('memberships')
    .values({
      org_id: m.orgId,
      user_id: m.userId,
      role: m.role,
      projects: m.projects === null ? null : JSON.stringify(m.projects),
      created_at: m.createdAt,
    })
    .execute();
}

export async function findMembership(db: Db, orgId: number, userId: number): Promise<MembershipRow | null> {
  const row = await query(db)
    .where('memberships.org_id', '=', orgId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  return row ? toMembership(row) : null;
}

/** An organisation's members, by the date they joined. */
export async function listMembers(db: Db, orgId: number): Promise<MembershipRow[]> {
  const rows = await query(db)
    .where('memberships.org_id', '=', orgId)
    .orderBy('memberships.created_at')
    .orderBy('memberships.user_id')
    .execute();
  return rows.map(toMembership);
}

/** A person's organisations, the oldest membership first (their first is the default). */
export async function listMemberships(db: Db, userId: number): Promise<MembershipRow[]> {
  const rows = await query(db)
    .where('memberships.user_id', '=', userId)
    .orderBy('memberships.created_at')
    .orderBy('memberships.org_id')
    .execute();
  return rows.map(toMembership);
}

export async function updateMembership(
  db: Db,
  orgId: number,
  userId: number,
  set: { role: RoleName; projects: string[] | null },
): Promise<boolean> {
  const res = await db
    .updateTable('memberships')
    .set({ role: set.role, projects: set.projects === null ? null : JSON.stringify(set.projects) })
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export async function deleteMembership(db: Db, orgId: number, userId: number): Promise<boolean> {
  const res = await db
    .deleteFrom('memberships')
    .where('org_id', '=', orgId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

/** How many owners the organisation has (the last one cannot leave nor be demoted). */
export async function countOwners(db: Db, orgId: number): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', orgId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
