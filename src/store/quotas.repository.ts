// An organisation's quotas (docs/teams.md "Quotas"): the limits set by the instance admin
// (organizations.quota_*; null: none) and what they count.
import { arg, compiledOnce } from './compiled.js';
import { dialectOf, type Db } from './database.js';
import { toNumber } from './sql-helpers.js';

export interface Quotas {
  reportsPerMonth: number | null;
  pagesPerCrawl: number | null;
  schedules: number | null;
}

export async function getQuotas(db: Db, orgId: number): Promise<Quotas> {
  const [row] = await quotasQuery(db, [orgId]);
  return {
    reportsPerMonth: row?.quota_reports_per_month ?? null,
    pagesPerCrawl: row?.quota_pages_per_crawl ?? null,
    schedules: row?.quota_schedules ?? null,
  };
}

/** read at every report stored (a crawl's page too): compiled once */
const quotasQuery = compiledOnce((db) =>
  db
    .selectFrom('organizations')
    .select(['quota_reports_per_month', 'quota_pages_per_crawl', 'quota_schedules'])
    .where('id', '=', arg<number>(0)),
);

export async function setQuotas(db: Db, orgId: number, q: Quotas): Promise<void> {
  await db
    .updateTable('organizations')
    .set({
      quota_reports_per_month: q.reportsPerMonth,
      quota_pages_per_crawl: q.pagesPerCrawl,
      quota_schedules: q.schedules,
    })
    .where('id', '=', orgId)
    .execute();
}

/** The organisation's reports made since `since` (ISO). */
export async function countReportsSince(db: Db, orgId: number, since: string): Promise<number> {
  const row = await db
    .selectFrom('reports')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', orgId)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return toNumber(row?.n);
}

/** The organisation's schedules (a report's and a project's). */
export async function countOrgSchedules(db: Db, orgId: number): Promise<number> {
  const row = await db
    .selectFrom('schedules')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return toNumber(row?.n);
}

/**
 * Locks the organisation's row until the transaction ends (PostgreSQL; SQLite's write
 * transaction already holds the lock): a crawl's page counts the month's reports under it, so
 * that two pages at once never both make the last report the quota allows. Lock order: the
 * batch, the project, the report, then this row (as the counters' update takes it).
 */
export async function lockOrgRow(db: Db, orgId: number): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.selectFrom('organizations').select('id').where('id', '=', orgId).forUpdate().execute();
}
