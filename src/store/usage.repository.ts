// An instance's usage per organisation (the instance admin's page): reports kept, crawls started
// and pages audited (report runs, single audits and crawls' pages alike) since a date.
import type { Db } from './database.js';
import { toIso, toNumber } from './sql-helpers.js';

export interface OrgUsageRow {
  id: number;
  name: string;
  createdAt: string;
  members: number;
  reports: number;
  crawls: number;
  pagesAudited: number;
}

export async function orgUsage(db: Db, since: string): Promise<OrgUsageRow[]> {
  const rows = await db
    .selectFrom('organizations as o')
    .select((eb) => [
      'o.id',
      'o.name',
      'o.created_at',
      'o.reports_count',
      eb
        .selectFrom('memberships as m')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('m.org_id', '=', 'o.id')
        .as('members'),
      eb
        .selectFrom('batches as b')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('b.org_id', '=', 'o.id')
        .where('b.created_at', '>=', since)
        .as('crawls'),
      eb
        .selectFrom('report_runs as rr')
        .innerJoin('reports as r', 'r.id', 'rr.report_id')
        .select((e) => e.fn.countAll<number | string>().as('n'))
        .whereRef('r.org_id', '=', 'o.id')
        .where('rr.generated_at', '>=', since)
        .as('pages'),
    ])
    .orderBy('o.name')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: toIso(r.created_at),
    members: toNumber(r.members),
    reports: toNumber(r.reports_count),
    crawls: toNumber(r.crawls),
    pagesAudited: toNumber(r.pages),
  }));
}
