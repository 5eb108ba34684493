// organizations: what an organisation owns is counted here (projects, reports by result), kept
// in the same transaction as the rows they count, with a version of its set of reports.
import { arg, compiled, compiledOnce } from './compiled.js';
import { dialectOf, type Db } from './database.js';
import { toIso, toNumber } from './sql-helpers.js';

export interface OrgCounters {
  projects: number;
  reports: number;
  good: number;
  decent: number;
  bad: number;
}

export interface OrgRow {
  id: number;
  name: string;
  createdAt: string;
}

export async function insertOrg(db: Db, name: string, now: string): Promise<OrgRow> {
  const row = await db
    .insertInto('organizations')
    .values({ name, created_at: now })
    .returning(['id', 'name', 'created_at'])
    .executeTakeFirstOrThrow();
  return { id: row.id, name: row.name, createdAt: toIso(row.created_at) };
}

export async function findOrgByName(db: Db, name: string): Promise<OrgRow | null> {
  const row = await db
    .selectFrom('organizations')
    .select(['id', 'name', 'created_at'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name, createdAt: toIso(row.created_at) } : null;
}

export async function findOrgById(db: Db, id: number): Promise<OrgRow | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const row = await db
    .selectFrom('organizations')
    .select(['id', 'name', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name, createdAt: toIso(row.created_at) } : null;
}

export async function listOrgs(db: Db): Promise<OrgRow[]> {
  const rows = await db
    .selectFrom('organizations')
    .select(['id', 'name', 'created_at'])
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ id: row.id, name: row.name, createdAt: toIso(row.created_at) }));
}

const countersQuery = compiledOnce((db) =>
  db
    .selectFrom('organizations')
    .select(['projects_count', 'reports_count', 'good_count', 'decent_count', 'bad_count'])
    .where('id', '=', arg<number>(0)),
);

export async function getOrgCounters(db: Db, orgId: number): Promise<OrgCounters> {
  const [row] = await countersQuery(db, [orgId]);
  return {
    projects: toNumber(row?.projects_count),
    reports: toNumber(row?.reports_count),
    good: toNumber(row?.good_count),
    decent: toNumber(row?.decent_count),
    bad: toNumber(row?.bad_count),
  };
}

/** Adds the deltas to an organisation's counters (one UPDATE; call inside the transaction that changed the rows). */
const counterColumns = {
  projects: 'projects_count',
  reports: 'reports_count',
  good: 'good_count',
  decent: 'decent_count',
  bad: 'bad_count',
} as const;

/**
 * `crawl`: the change is a crawl's page (its report made or given a run): crawl_writes moves
 * with the version (what a kept list answer may trail: reports.service.ts, CRAWL_TRAIL_MS).
 */
export async function adjustOrgCounters(
  db: Db,
  orgId: number,
  delta: Partial<OrgCounters>,
  crawl = false,
): Promise<void> {
  const entries = (
    Object.entries(counterColumns) as [keyof OrgCounters, (typeof counterColumns)[keyof OrgCounters]][]
  ).filter(([key]) => (delta[key] ?? 0) !== 0);
  if (entries.length === 0) return;
  await adjustQuery(db, { columns: entries.map(([, column]) => column), crawl }, [
    orgId,
    ...entries.map(([key]) => delta[key] ?? 0),
  ]);
}

/** adjustOrgCounters' statement for a set of counter columns, compiled once each (a crawl adjusts a page) */
const adjustQuery = compiled(
  (c: { columns: (typeof counterColumns)[keyof OrgCounters][]; crawl: boolean }) =>
    `${c.columns.join()}${c.crawl ? ':crawl' : ''}`,
  (db, c) =>
    db
      .updateTable('organizations')
      .set((eb) => ({
        ...Object.fromEntries(c.columns.map((column, i) => [column, eb(column, '+', arg<number>(i + 1))])),
        // every insert, delete or result change of a report changes a counter: a new version
        reports_version: eb('reports_version', '+', 1),
        ...(c.crawl ? { crawl_writes: eb('crawl_writes', '+', 1) } : {}),
      }))
      .where('id', '=', arg<number>(0)),
);

/**
 * A new version of an organisation's reports without a counter change (a re-audit moves
 * generated_at); `crawl` as for adjustOrgCounters.
 */
export async function bumpReportsVersion(db: Db, orgId: number, crawl = false): Promise<void> {
  await db
    .updateTable('organizations')
    .set((eb) => ({
      reports_version: eb('reports_version', '+', 1),
      ...(crawl ? { crawl_writes: eb('crawl_writes', '+', 1) } : {}),
    }))
    .where('id', '=', orgId)
    .execute();
}

/** The report counters and the version of the set they count, read together (one row). */
const reportsStateQuery = compiledOnce((db) =>
  db
    .selectFrom('organizations')
    .select(['reports_version', 'reports_count', 'good_count', 'decent_count', 'bad_count'])
    .where('id', '=', arg<number>(0)),
);

export async function getReportsState(
  db: Db,
  orgId: number,
): Promise<{ version: number; reports: number; good: number; decent: number; bad: number } | null> {
  const [row] = await reportsStateQuery(db, [orgId]);
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
 * The version of an organisation's set of reports (ids, projects, results): it changes in the same
 * transaction as every change of the report counters, so anything computed from the reports'
 * url/project/result at one version (a search total) is exact for as long as it is current.
 */
export async function getReportsVersion(db: Db, orgId: number): Promise<number | null> {
  const [row] = await reportsVersionQuery(db, [orgId]);
  return row ? toNumber(row.reports_version) : null;
}
/** read before and after every list answer: compiled once */
const reportsVersionQuery = compiledOnce((db) =>
  db.selectFrom('organizations').select('reports_version').where('id', '=', arg<number>(0)),
);

/**
 * The version and how many of its changes were a crawl's pages (crawl_writes), read together.
 *
 * PostgreSQL: the reads asked for one organisation in one turn of the event loop share one
 * query, sent once all of them have been asked (at the next `setImmediate`): a kept list answer
 * reads the version on every request, and on PostgreSQL that read is a round trip — most of the
 * request's cost after the answer's own write. A read never joins a query already sent, so each
 * caller sees every change committed before it asked (a client that wrote, then lists, sees its
 * write). SQLite reads at once: its read is a call, not a round trip.
 */
export function getReportsVersions(db: Db, orgId: number): Promise<Versions | null> {
  if (dialectOf(db) !== 'postgres') return readReportsVersions(db, orgId);
  let asked = versionsAsked.get(db);
  if (!asked) versionsAsked.set(db, (asked = new Map()));
  const pending = asked.get(orgId);
  if (pending) return pending;
  const read = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
    // from here on, a new ask starts a query of its own
    asked.delete(orgId);
    return readReportsVersions(db, orgId);
  });
  asked.set(orgId, read);
  return read;
}
interface Versions {
  version: number;
  crawlWrites: number;
}
/** the reads asked and not yet sent, by database and organisation */
const versionsAsked = new WeakMap<Db, Map<number, Promise<Versions | null>>>();
async function readReportsVersions(db: Db, orgId: number): Promise<Versions | null> {
  const [row] = await reportsVersionsQuery(db, [orgId]);
  return row ? { version: toNumber(row.reports_version), crawlWrites: toNumber(row.crawl_writes) } : null;
}
const reportsVersionsQuery = compiledOnce((db) =>
  db.selectFrom('organizations').select(['reports_version', 'crawl_writes']).where('id', '=', arg<number>(0)),
);
