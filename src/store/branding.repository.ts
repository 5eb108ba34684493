// brandings: one row per user (the PDF reports' name, logo, accent colour, contact and
// "prepared for" lines). The logo is base64 text with its media type.
import type { Db } from './database.js';
import { toIso } from './sql-helpers.js';

export interface BrandingRow {
  userId: number;
  name: string | null;
  accentColor: string | null;
  contact: string | null;
  preparedFor: string | null;
  logoType: string | null;
  /** base64 */
  logoData: string | null;
  updatedAt: string;
}

export type BrandingValues = Omit<BrandingRow, 'userId' | 'updatedAt'>;

export async function findBranding(db: Db, userId: number): Promise<BrandingRow | null> {
  const r = await db.selectFrom('brandings').selectAll().where('org_id', '=', userId).executeTakeFirst();
  if (!r) return null;
  return {
    userId: r.org_id,
    name: r.name,
    accentColor: r.accent_color,
    contact: r.contact,
    preparedFor: r.prepared_for,
    logoType: r.logo_type,
    logoData: r.logo_data,
    updatedAt: toIso(r.updated_at),
  };
}

/** Inserts or replaces the user's branding (every column). */
export async function saveBranding(
  db: Db,
  userId: number,
  v: BrandingValues,
  updatedAt: string,
): Promise<void> {
  const values = {
    name: v.name,
    accent_color: v.accentColor,
    contact: v.contact,
    prepared_for: v.preparedFor,
    logo_type: v.logoType,
    logo_data: v.logoData,
    updated_at: updatedAt,
  };
  await db
    .insertInto('brandings')
    .values({ org_id: userId, ...values })
    .onConflict((oc) => oc.column('org_id').doUpdateSet(values))
    .execute();
}

/** true when there was one */
export async function deleteBranding(db: Db, userId: number): Promise<boolean> {
  const r = await db.deleteFrom('brandings').where('org_id', '=', userId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The branding of the user who owns report `reportId` (the PDF of a report shows its owner's), or null. */
export async function findBrandingOfReport(db: Db, reportId: number): Promise<BrandingRow | null> {
  const owner = await db.selectFrom('reports').select('org_id').where('id', '=', reportId).executeTakeFirst();
  return owner ? findBranding(db, owner.org_id) : null;
}
