// brandings: one row per organisation (the PDF reports' name, logo, accent colour, contact and
// "prepared for" lines); project_brandings: a project's own, the same columns. The logo is
// base64 text with its media type.
import type { Selectable } from 'kysely';
import type { Database, Db } from './database.js';
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

/** A branding's values as its columns (the organisation's and a project's tables alike). */
const brandingColumns = (v: BrandingValues, updatedAt: string) => ({
  name: v.name,
  accent_color: v.accentColor,
  contact: v.contact,
  prepared_for: v.preparedFor,
  logo_type: v.logoType,
  logo_data: v.logoData,
  updated_at: updatedAt,
});

/** Inserts or replaces the user's branding (every column). */
export async function saveBranding(
  db: Db,
  userId: number,
  v: BrandingValues,
  updatedAt: string,
): Promise<void> {
  const values = brandingColumns(v, updatedAt);
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

// ── a project's own branding (project_brandings: keyed by the project row) ──────────────────

type BrandingColumns = Omit<Database['project_brandings'], 'project_id'>;

const rowOf = (orgId: number, r: Selectable<BrandingColumns>): BrandingRow => ({
  userId: orgId,
  name: r.name,
  accentColor: r.accent_color,
  contact: r.contact,
  preparedFor: r.prepared_for,
  logoType: r.logo_type,
  logoData: r.logo_data,
  updatedAt: toIso(r.updated_at),
});

const BRANDING_COLUMNS = [
  'project_brandings.name',
  'project_brandings.accent_color',
  'project_brandings.contact',
  'project_brandings.prepared_for',
  'project_brandings.logo_type',
  'project_brandings.logo_data',
  'project_brandings.updated_at',
] as const;

/** Project `name`'s own branding in organisation `orgId`, or null (none, or no such project). */
export async function findProjectBranding(db: Db, orgId: number, name: string): Promise<BrandingRow | null> {
  const r = await db
    .selectFrom('project_brandings')
    .innerJoin('projects', 'projects.id', 'project_brandings.project_id')
    .select(BRANDING_COLUMNS)
    .where('projects.org_id', '=', orgId)
    .where('projects.name', '=', name)
    .executeTakeFirst();
  return r ? rowOf(orgId, r) : null;
}

/** Inserts or replaces project `name`'s branding; false when the project does not exist. */
export async function saveProjectBranding(
  db: Db,
  orgId: number,
  name: string,
  v: BrandingValues,
  updatedAt: string,
): Promise<boolean> {
  const project = await db
    .selectFrom('projects')
    .select('id')
    .where('org_id', '=', orgId)
    .where('name', '=', name)
    .executeTakeFirst();
  if (!project) return false;
  const values = brandingColumns(v, updatedAt);
  await db
    .insertInto('project_brandings')
    .values({ project_id: project.id, ...values })
    .onConflict((oc) => oc.column('project_id').doUpdateSet(values))
    .execute();
  return true;
}

/** true when there was one */
export async function deleteProjectBranding(db: Db, orgId: number, name: string): Promise<boolean> {
  const r = await db
    .deleteFrom('project_brandings')
    .where('project_id', 'in', (eb) =>
      eb.selectFrom('projects').select('id').where('org_id', '=', orgId).where('name', '=', name),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** The organisation's and the report's project's brandings of report `reportId` (each null when none). */
export async function findBrandingsOfReport(
  db: Db,
  reportId: number,
): Promise<{ org: BrandingRow | null; project: BrandingRow | null }> {
  const report = await db
    .selectFrom('reports')
    .select(['org_id', 'project'])
    .where('id', '=', reportId)
    .executeTakeFirst();
  if (!report) return { org: null, project: null };
  const [org, project] = await Promise.all([
    findBranding(db, report.org_id),
    findProjectBranding(db, report.org_id, report.project),
  ]);
  return { org, project };
}
