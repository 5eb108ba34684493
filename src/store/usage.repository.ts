// An instance's usage per organisation (the instance admin's page): reports kept, crawls started
// and pages audited (report runs, single audits and crawls' pages alike) since a date, and the
// storage its reports, their runs and its crawls take (docs/teams.md "The instance admin").
import { sql, type RawBuilder } from 'kysely';
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
  /** bytes of the stored text of its reports, their earlier runs, its crawls and their pages */
  storageBytes: number;
}

/**
 * The bytes of the UTF-8 text in these columns (null: 0), summed: `octet_length`, which both
 * SQLite (≥ 3.43) and PostgreSQL have. It measures what the rows hold, not the pages on disk
 * (PostgreSQL's compression, indexes and free space are not counted).
 */
function bytesOf(table: string, columns: readonly string[]): RawBuilder<number | string | null> {
  const parts = columns.map((c) => sql`coalesce(octet_length(${sql.ref(`${table}.${c}`)}), 0)`);
  return sql<number | string | null>`sum(${sql.join(parts, sql` + `)})`;
}

/** The stored text of a report (the current run), of an earlier run, of a crawl and of one of its pages. */
const REPORT_COLUMNS = ['url', 'final_url', 'categories', 'results', 'page', 'render'] as const;
const RUN_COLUMNS = ['final_url', 'error', 'categories', 'results', 'page', 'render'] as const;
const BATCH_COLUMNS = [
  'url',
  'options',
  'summary',
  'findings',
  'diff',
  'robots_txt',
  'site_files',
  'sitemap_files',
  'error',
] as const;
const BATCH_PAGE_COLUMNS = ['url', 'final_url', 'error', 'facts'] as const;

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
      eb
        .selectFrom('reports as r')
        .select(bytesOf('r', REPORT_COLUMNS).as('n'))
        .whereRef('r.org_id', '=', 'o.id')
        .as('report_bytes'),
      eb
        .selectFrom('report_runs as rr')
        .innerJoin('reports as r', 'r.id', 'rr.report_id')
        .select(bytesOf('rr', RUN_COLUMNS).as('n'))
        .whereRef('r.org_id', '=', 'o.id')
        .as('run_bytes'),
      eb
        .selectFrom('batches as b')
        .select(bytesOf('b', BATCH_COLUMNS).as('n'))
        .whereRef('b.org_id', '=', 'o.id')
        .as('batch_bytes'),
      eb
        .selectFrom('batch_pages as bp')
        .innerJoin('batches as b', 'b.id', 'bp.batch_id')
        .select(bytesOf('bp', BATCH_PAGE_COLUMNS).as('n'))
        .whereRef('b.org_id', '=', 'o.id')
        .as('page_bytes'),
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
    storageBytes:
      toNumber(r.report_bytes) + toNumber(r.run_bytes) + toNumber(r.batch_bytes) + toNumber(r.page_bytes),
  }));
}
