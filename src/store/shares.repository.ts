// shares: read-only links to a report or a project's latest crawl (docs/teams.md "Share
// links"); only the token's SHA-256 is stored.
import type { Db } from './database.js';
import { toIso, toIsoOrNull } from './sql-helpers.js';

export interface ShareRow {
  id: number;
  orgId: number;
  reportId: number | null;
  project: string | null;
  createdBy: number | null;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
}

type Raw = {
  id: number;
  org_id: number;
  report_id: number | null;
  project: string | null;
  created_by: number | null;
  created_at: Date | string;
  expires_at: Date | string;
  revoked_at: Date | string | null;
};
const COLUMNS = [
  'id',
  'org_id',
  'report_id',
  'project',
  'created_by',
  'created_at',
  'expires_at',
  'revoked_at',
] as const;
const toRow = (r: Raw): ShareRow => ({
  id: r.id,
  orgId: r.org_id,
  reportId: r.report_id,
  project: r.project,
  createdBy: r.created_by,
  createdAt: toIso(r.created_at),
  expiresAt: toIso(r.expires_at),
  revokedAt: toIsoOrNull(r.revoked_at),
});

export async function insertShare(
  db: Db,
  s: Omit<ShareRow, 'id' | 'revokedAt'> & { tokenHash: string },
): Promise<ShareRow> {
  const row = await db
    .insertInto('shares')
    .values({
      org_id: s.orgId,
      token_hash: s.tokenHash,
      report_id: s.reportId,
      project: s.project,
      created_by: s.createdBy,
      created_at: s.createdAt,
      expires_at: s.expiresAt,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRow(row);
}

export async function findShareByHash(db: Db, tokenHash: string): Promise<ShareRow | null> {
  const row = await db
    .selectFrom('shares')
    .select(COLUMNS)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

export async function findShare(db: Db, orgId: number, id: number): Promise<ShareRow | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const row = await db
    .selectFrom('shares')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

/** An organisation's shares, newest first. */
export async function listShares(db: Db, orgId: number): Promise<ShareRow[]> {
  const rows = await db
    .selectFrom('shares')
    .select(COLUMNS)
    .where('org_id', '=', orgId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toRow);
}

export async function revokeShare(db: Db, orgId: number, id: number, now: string): Promise<void> {
  await db
    .updateTable('shares')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .where('revoked_at', 'is', null)
    .execute();
}
