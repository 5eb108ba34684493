// projects: one row per (user, host) while it holds reports, with its reports_count maintained
// in the transactions that insert and delete reports — listing never aggregates over reports.
import { arg, compiledOnce } from './compiled.js';
import { dialectOf, type Db } from './database.js';
import type { BatchStatus } from './batches.repository.js';
import { substringMatch, toIso, toNumber } from './sql-helpers.js';

export interface ProjectRow {
  name: string;
  createdAt: string;
  reportsCount: number;
}

export interface ProjectListOptions {
  search?: string;
  sortBy: 'created_at' | 'project';
  sort: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/**
 * Counts one more report in a project, creating the project row when it has none.
 * Returns true when the row was created. (INSERT … DO NOTHING then UPDATE, retried: a project
 * deleted by a concurrent transaction between the two is simply created again.)
 */
export async function addReportToProject(
  db: Db,
  userId: number,
  name: string,
  now: string,
): Promise<boolean> {
  for (;;) {
    const [inserted] = await insertProjectQuery(db, [userId, name, now, 1]);
    if (inserted) return true;
    const [updated] = await countReportQuery(db, [userId, name]);
    if (updated) return false;
  }
}

/** a project's row made with its report count (0 or 1) unless it exists: compiled once (a crawl makes two a page) */
const insertProjectQuery = compiledOnce((db) =>
  db
    .insertInto('projects')
    .values({
      org_id: arg<number>(0),
      name: arg<string>(1),
      created_at: arg<string>(2),
      reports_count: arg<number>(3),
    })
    .onConflict((oc) => oc.columns(['org_id', 'name']).doNothing())
    .returning('id'),
);

const countReportQuery = compiledOnce((db) =>
  db
    .updateTable('projects')
    .set((eb) => ({ reports_count: eb('reports_count', '+', 1) }))
    .where('org_id', '=', arg<number>(0))
    .where('name', '=', arg<string>(1))
    .returning('id'),
);

/**
 * Makes sure the user's project row exists (made here with 0 reports) and locks it until the
 * transaction ends (PostgreSQL; SQLite's write transaction already holds the lock): a crawl's
 * page looks the project's report of the page up after this, so two crawls of one project
 * never both make a report of one page. Returns true when the row was made here.
 */
export async function claimProject(db: Db, userId: number, name: string, now: string): Promise<boolean> {
  const [inserted] = await insertProjectQuery(db, [userId, name, now, 0]);
  if (inserted) return true;
  await lockProject(db, userId, name);
  return false;
}

/** Counts one report less; deletes the project when it was the last. Returns true when deleted. */
export async function removeReportFromProject(
  db: Db,
  userId: number,
  name: string,
  count = 1,
): Promise<boolean> {
  const row = await db
    .updateTable('projects')
    .set((eb) => ({ reports_count: eb('reports_count', '-', count) }))
    .where('org_id', '=', userId)
    .where('name', '=', name)
    .returning('reports_count')
    .executeTakeFirst();
  if (!row || toNumber(row.reports_count) > 0) return false;
  const deleted = await db
    .deleteFrom('projects')
    .where('org_id', '=', userId)
    .where('name', '=', name)
    .where('reports_count', '<=', 0)
    // a project with settings (a site set up with PUT) or a branding of its own stays with 0 reports
    .where('settings', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('project_brandings').select('project_id').whereRef('project_id', '=', 'projects.id'),
        ),
      ),
    )
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** Deletes a project row (locks it until commit on PostgreSQL); false when it does not exist. */
export async function deleteProjectRow(db: Db, userId: number, name: string): Promise<boolean> {
  const res = await db
    .deleteFrom('projects')
    .where('org_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

const projectQuery = compiledOnce((db) =>
  db
    .selectFrom('projects')
    .select(['name', 'created_at', 'reports_count'])
    .where('org_id', '=', arg<number>(0))
    .where('name', '=', arg<string>(1)),
);

export async function findProject(db: Db, userId: number, name: string): Promise<ProjectRow | null> {
  const [row] = await projectQuery(db, [userId, name]);
  return row
    ? { name: row.name, createdAt: toIso(row.created_at), reportsCount: toNumber(row.reports_count) }
    : null;
}

function filtered(db: Db, userId: number, search: string | undefined) {
  let q = db.selectFrom('projects').where('projects.org_id', '=', userId);
  if (search) q = q.where(substringMatch(dialectOf(db), 'projects', 'name', search));
  return q;
}

export async function listProjects(db: Db, userId: number, o: ProjectListOptions): Promise<ProjectRow[]> {
  let q = filtered(db, userId, o.search).select([
    'projects.name',
    'projects.created_at',
    'projects.reports_count',
  ]);
  q = o.sortBy === 'created_at' ? q.orderBy('projects.created_at', o.sort) : q;
  const rows = await q.orderBy('projects.name', o.sort).limit(o.limit).offset(o.offset).execute();
  return rows.map((r) => ({
    name: r.name,
    createdAt: toIso(r.created_at),
    reportsCount: toNumber(r.reports_count),
  }));
}

/** The ids of a page of `listProjects`, in order. */
export async function listProjectIds(db: Db, userId: number, o: ProjectListOptions): Promise<number[]> {
  let q = filtered(db, userId, o.search).select('projects.id');
  q = o.sortBy === 'created_at' ? q.orderBy('projects.created_at', o.sort) : q;
  const rows = await q.orderBy('projects.name', o.sort).limit(o.limit).offset(o.offset).execute();
  return rows.map((r) => r.id);
}

/** These projects, in the order of `ids` (ids no longer there are skipped). */
export async function projectsByIds(db: Db, ids: number[]): Promise<ProjectRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('projects')
    .select(['id', 'name', 'created_at', 'reports_count'])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r
      ? [{ name: r.name, createdAt: toIso(r.created_at), reportsCount: toNumber(r.reports_count) }]
      : [];
  });
}

/** Counts matching projects (only used with a search; the unfiltered count is users.projects_count). */
export async function countProjects(db: Db, userId: number, search: string | undefined): Promise<number> {
  const row = await filtered(db, userId, search)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return toNumber(row.n);
}

/**
 * Locks a project row until the transaction ends (PostgreSQL; no-op on SQLite, whose
 * transactions hold the write lock). Taken before touching its reports so that every
 * transaction locks project → reports → user in the same order (no deadlocks).
 */
export async function lockProject(db: Db, userId: number, name: string): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db
    .selectFrom('projects')
    .select('id')
    .where('org_id', '=', userId)
    .where('name', '=', name)
    .forUpdate()
    .execute();
}

/** What a project's reports say, for its row on the dashboard. */
export interface ProjectStatsRow {
  name: string;
  reports: number;
  averageScore: number;
  worstScore: number;
  good: number;
  decent: number;
  bad: number;
  /** the newest report's audit date */
  lastAuditAt: string;
}

/**
 * The statistics of the given projects of a user, in one aggregate query over their reports
 * (served by the reports_user_project index): report count, average and worst score, results
 * by band and the last audit date. A project with no report is absent.
 */
export async function projectStats(db: Db, userId: number, names: string[]): Promise<ProjectStatsRow[]> {
  if (names.length === 0) return [];
  const rows = await db
    .selectFrom('reports')
    .where('org_id', '=', userId)
    .where('project', 'in', names)
    .groupBy('project')
    .select((eb) => [
      'project',
      eb.fn.countAll().as('reports'),
      eb.fn.avg('score').as('average'),
      eb.fn.min('score').as('worst'),
      eb.fn.sum(eb.case().when('result', '=', 'good').then(1).else(0).end()).as('good'),
      eb.fn.sum(eb.case().when('result', '=', 'decent').then(1).else(0).end()).as('decent'),
      eb.fn.sum(eb.case().when('result', '=', 'bad').then(1).else(0).end()).as('bad'),
      eb.fn.max('generated_at').as('last'),
    ])
    .execute();
  return rows.map((r) => ({
    name: r.project,
    reports: toNumber(r.reports),
    averageScore: Math.round(Number(r.average)),
    worstScore: toNumber(r.worst),
    good: toNumber(r.good),
    decent: toNumber(r.decent),
    bad: toNumber(r.bad),
    lastAuditAt: toIso(r.last as string | Date),
  }));
}

/** A project row with its stored settings (JSON) and encrypted secrets. */
export interface ProjectSettingsRow extends ProjectRow {
  settings: string | null;
  secrets: string | null;
}

export async function findProjectSettings(
  db: Db,
  userId: number,
  name: string,
): Promise<ProjectSettingsRow | null> {
  const row = await db
    .selectFrom('projects')
    .select(['name', 'created_at', 'reports_count', 'settings', 'secrets'])
    .where('org_id', '=', userId)
    .where('name', '=', name)
    .executeTakeFirst();
  return row
    ? {
        name: row.name,
        createdAt: toIso(row.created_at),
        reportsCount: toNumber(row.reports_count),
        settings: row.settings,
        secrets: row.secrets,
      }
    : null;
}

/**
 * Stores a project's settings, creating the project (0 reports) when it has no row. Returns
 * true when the row was created (the caller counts one more project for the user).
 */
export async function saveProjectSettings(
  db: Db,
  userId: number,
  name: string,
  values: { settings: string; secrets: string | null; now: string },
): Promise<boolean> {
  for (;;) {
    const updated = await db
      .updateTable('projects')
      .set({ settings: values.settings, secrets: values.secrets })
      .where('org_id', '=', userId)
      .where('name', '=', name)
      .executeTakeFirst();
    if (updated.numUpdatedRows > 0n) return false;
    const inserted = await db
      .insertInto('projects')
      .values({
        org_id: userId,
        name,
        created_at: values.now,
        reports_count: 0,
        settings: values.settings,
        secrets: values.secrets,
      })
      .onConflict((oc) => oc.columns(['org_id', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return true;
  }
}

/** A project's newest batch (any state) and its newest finished (`done`) one: two indexed reads. */
export async function projectCrawls(
  db: Db,
  userId: number,
  project: string,
): Promise<{ latest: number | null; done: number | null }> {
  const newest = (status?: BatchStatus) => {
    let q = db.selectFrom('batches').select('id').where('org_id', '=', userId).where('project', '=', project);
    if (status) q = q.where('status', '=', status);
    return q.orderBy('id', 'desc').limit(1).executeTakeFirst();
  };
  const latest = await newest();
  if (!latest) return { latest: null, done: null };
  const done = await newest('done');
  return { latest: latest.id, done: done?.id ?? null };
}

/** The mean score of the reports a batch's audited pages have (null when none), and their number. */
export async function batchMeanScore(
  db: Db,
  batchId: number,
): Promise<{ mean: number | null; pages: number }> {
  const row = await db
    .selectFrom('batch_pages')
    .innerJoin('reports', 'reports.id', 'batch_pages.report_id')
    .where('batch_pages.batch_id', '=', batchId)
    .where('batch_pages.state', '=', 'done')
    .select((eb) => [eb.fn.avg('reports.score').as('mean'), eb.fn.countAll().as('n')])
    .executeTakeFirstOrThrow();
  const pages = toNumber(row.n);
  return { mean: pages === 0 ? null : Number(row.mean), pages };
}

/** A finished crawl of a project as its timeline shows it: when it ended and its stored summary. */
export interface ProjectCrawlPoint {
  id: number;
  finishedAt: string | null;
  /** batches.summary (JSON, stored when the batch ended) */
  summary: string;
}

/**
 * The project's newest finished (`done`) crawls that have a stored summary, newest first: the
 * (org_id, project, id) index walked backwards, at most `limit` rows — never every batch.
 */
export async function projectTimeline(
  db: Db,
  userId: number,
  project: string,
  limit: number,
): Promise<ProjectCrawlPoint[]> {
  const rows = await db
    .selectFrom('batches')
    .select(['id', 'finished_at', 'summary'])
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .where('status', '=', 'done')
    .where('summary', 'is not', null)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    finishedAt: r.finished_at === null ? null : toIso(r.finished_at),
    summary: r.summary!,
  }));
}
