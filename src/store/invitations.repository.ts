// invitations: an invitation to join an organisation (docs/teams.md "Invitations"); only the
// token's SHA-256 is stored. A row is pending while not accepted, not revoked and not expired.
import type { Db } from './database.js';
import type { RoleName } from './memberships.repository.js';
import { parseProjects, toIso, toIsoOrNull } from './sql-helpers.js';

export interface InvitationRow {
  id: number;
  orgId: number;
  orgName: string;
  email: string;
  role: RoleName;
  projects: string[] | null;
  createdBy: number | null;
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  acceptedBy: number | null;
  revokedAt: string | null;
}

function query(db: Db) {
  return db
    .selectFrom('invitations')
    .innerJoin('organizations', 'organizations.id', 'invitations.org_id')
    .select([
      'invitations.id',
      'invitations.org_id',
      'organizations.name as org_name',
      'invitations.email',
      'invitations.role',
      'invitations.projects',
      'invitations.created_by',
      'invitations.created_at',
      'invitations.expires_at',
      'invitations.accepted_at',
      'invitations.accepted_by',
      'invitations.revoked_at',
    ]);
}

type Raw = Awaited<ReturnType<ReturnType<typeof query>['executeTakeFirstOrThrow']>>;

const toRow = (r: Raw): InvitationRow => ({
  id: r.id,
  orgId: r.org_id,
  orgName: r.org_name,
  email: r.email,
  role: r.role,
  projects: parseProjects(r.projects),
  createdBy: r.created_by,
  createdAt: toIso(r.created_at),
  expiresAt: toIso(r.expires_at),
  acceptedAt: toIsoOrNull(r.accepted_at),
  acceptedBy: r.accepted_by,
  revokedAt: toIsoOrNull(r.revoked_at),
});

const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;

export async function insertInvitation(
  db: Db,
  i: {
    orgId: number;
    email: string;
    role: RoleName;
    projects: string[] | null;
    tokenHash: string;
    createdBy: number | null;
    createdAt: string;
    expiresAt: string;
  },
): Promise<InvitationRow> {
  const { id } = await db
    .insertInto('invitations')
    .values({
      org_id: i.orgId,
      email: i.email,
      role: i.role,
      projects: i.projects === null ? null : JSON.stringify(i.projects),
      token_hash: i.tokenHash,
      created_by: i.createdBy,
      created_at: i.createdAt,
      expires_at: i.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await findInvitation(db, i.orgId, id))!;
}

export async function findInvitation(db: Db, orgId: number, id: number): Promise<InvitationRow | null> {
  if (!validId(id)) return null;
  const row = await query(db)
    .where('invitations.id', '=', id)
    .where('invitations.org_id', '=', orgId)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

export async function findInvitationByHash(db: Db, tokenHash: string): Promise<InvitationRow | null> {
  const row = await query(db).where('invitations.token_hash', '=', tokenHash).executeTakeFirst();
  return row ? toRow(row) : null;
}

/** An organisation's invitations, newest first, one page, and how many there are. */
export async function listInvitations(
  db: Db,
  orgId: number,
  page: { limit: number; offset: number },
): Promise<{ items: InvitationRow[]; total: number }> {
  const rows = await query(db)
    .where('invitations.org_id', '=', orgId)
    .orderBy('invitations.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const { n } = await db
    .selectFrom('invitations')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirstOrThrow();
  return { items: rows.map(toRow), total: Number(n) };
}

/** Revokes the organisation's pending invitations for this email (a new one replaces them). */
export async function revokePendingFor(db: Db, orgId: number, email: string, now: string): Promise<number[]> {
  const rows = await db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('org_id', '=', orgId)
    .where('email', '=', email)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function revokeInvitation(db: Db, orgId: number, id: number, now: string): Promise<boolean> {
  const r = await db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Marks a pending invitation accepted, once: false when it was accepted, revoked or had expired
 * meanwhile (two accepts at once: one wins).
 */
export async function markAccepted(db: Db, id: number, userId: number, now: string): Promise<boolean> {
  const r = await db
    .updateTable('invitations')
    .set({ accepted_at: now, accepted_by: userId })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
