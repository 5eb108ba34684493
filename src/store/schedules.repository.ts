// schedules: every SQL statement on them (docs/schedules.md). Dates come back as ISO strings.
// A row is a report's schedule (report_id) or a project's (project_id, docs/sites.md
// "Scheduled crawls"): both are claimed by the same statements below.
// The scheduler's claim: due rows (next_run_at <= now, no run in progress or a stale one)
// locked with FOR UPDATE SKIP LOCKED on PostgreSQL (SQLite: the caller's BEGIN IMMEDIATE
// transaction holds the write lock), then moved to their next run in the same transaction.
import { sql } from 'kysely';
import { dialectOf, type Db } from './database.js';
import { toIso, toIsoOrNull, toNumber } from './sql-helpers.js';

export interface ScheduleRow {
  id: number;
  /** a report's schedule (else null) */
  reportId: number | null;
  /** a project's schedule (else null) */
  projectId: number | null;
  /** a project's schedule: the project's name */
  project: string | null;
  userId: number;
  every: string;
  timezone: string;
  render: boolean;
  nextRunAt: string;
  claimedSlot: string | null;
  claimedAt: string | null;
  /** when a run of the claimed slot started (epoch ms), null: not yet */
  runStartedAt: number | null;
  lastSlot: string | null;
  lastRunAt: string | null;
  lastStatus: ScheduleStatus | null;
  lastError: string | null;
  lastRunNumber: number | null;
  /** a project's schedule: the batch its last started slot made */
  lastBatchId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** How a slot went: a report's re-audit completed or failed; a project's crawl started or was skipped (or failed to start). */
export type ScheduleStatus = 'completed' | 'failed' | 'started' | 'skipped';

/** A schedule as listed: its report's URL and project, or its project's name and stored settings (JSON). */
export interface ListedScheduleRow extends ScheduleRow {
  /** the report's URL (null for a project's schedule) */
  url: string | null;
  /** the report's project, or the project's name */
  projectName: string | null;
  /** a project's schedule: its settings (JSON), whose start_url it crawls */
  projectSettings: string | null;
}

const MAX_INT = 2_147_483_647;
const validId = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_INT;

const columns = [
  'schedules.id',
  'schedules.report_id',
  'schedules.project_id',
  'schedules.org_id',
  'schedules.every',
  'schedules.timezone',
  'schedules.render',
  'schedules.next_run_at',
  'schedules.claimed_slot',
  'schedules.claimed_at',
  'schedules.run_started_at',
  'schedules.last_slot',
  'schedules.last_run_at',
  'schedules.last_status',
  'schedules.last_error',
  'schedules.last_run_number',
  'schedules.last_batch_id',
  'schedules.created_at',
  'schedules.updated_at',
] as const;

function scheduleQuery(db: Db) {
  return db
    .selectFrom('schedules')
    .select(columns)
    .select((eb) =>
      eb
        .selectFrom('projects')
        .select('projects.name')
        .whereRef('projects.id', '=', 'schedules.project_id')
        .as('project'),
    );
}
type ScheduleSelect = Awaited<ReturnType<ReturnType<typeof scheduleQuery>['executeTakeFirstOrThrow']>>;

function toRow(r: Omit<ScheduleSelect, 'project'> & { project?: string | null }): ScheduleRow {
  return {
    id: r.id,
    reportId: r.report_id,
    projectId: r.project_id,
    project: r.project ?? null,
    userId: r.org_id,
    every: r.every,
    timezone: r.timezone,
    render: toNumber(r.render) === 1,
    nextRunAt: toIso(r.next_run_at),
    claimedSlot: r.claimed_slot,
    claimedAt: toIsoOrNull(r.claimed_at),
    runStartedAt: r.run_started_at === null ? null : toNumber(r.run_started_at),
    lastSlot: r.last_slot,
    lastRunAt: toIsoOrNull(r.last_run_at),
    lastStatus: r.last_status as ScheduleRow['lastStatus'],
    lastError: r.last_error,
    lastRunNumber: r.last_run_number === null ? null : toNumber(r.last_run_number),
    lastBatchId: r.last_batch_id === null ? null : toNumber(r.last_batch_id),
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
  };
}

/** Sets a report's schedule (a new one, or new settings for its one); returns its id. */
export async function upsertSchedule(
  db: Db,
  s: {
    reportId: number;
    userId: number;
    every: string;
    timezone: string;
    render: boolean;
    nextRunAt: string;
    now: string;
  },
): Promise<number> {
  const row = await db
    .insertInto('schedules')
    .values({
      report_id: s.reportId,
      org_id: s.userId,
      every: s.every,
      timezone: s.timezone,
      render: s.render ? 1 : 0,
      next_run_at: s.nextRunAt,
      created_at: s.now,
      updated_at: s.now,
    })
    .onConflict((oc) =>
      oc.column('report_id').doUpdateSet({
        every: s.every,
        timezone: s.timezone,
        render: s.render ? 1 : 0,
        next_run_at: s.nextRunAt,
        updated_at: s.now,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A report's schedule, scoped to its owner (null: none, or another user's). */
export async function findScheduleOfReport(
  db: Db,
  reportId: number,
  userId: number,
): Promise<ScheduleRow | null> {
  if (!validId(reportId)) return null;
  const r = await scheduleQuery(db)
    .where('schedules.report_id', '=', reportId)
    .where('schedules.org_id', '=', userId)
    .executeTakeFirst();
  return r ? toRow(r) : null;
}

export async function findSchedule(db: Db, id: number): Promise<ScheduleRow | null> {
  if (!validId(id)) return null;
  const r = await scheduleQuery(db).where('schedules.id', '=', id).executeTakeFirst();
  return r ? toRow(r) : null;
}

/** true when there was one to delete */
export async function deleteScheduleOfReport(db: Db, reportId: number, userId: number): Promise<boolean> {
  if (!validId(reportId)) return false;
  const r = await db
    .deleteFrom('schedules')
    .where('report_id', '=', reportId)
    .where('org_id', '=', userId)
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

export async function countSchedules(db: Db, userId: number): Promise<number> {
  const r = await db
    .selectFrom('schedules')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('org_id', '=', userId)
    .executeTakeFirstOrThrow();
  return toNumber(r.n);
}

/** A page of a user's schedules (both kinds), newest first, with their reports' URLs or projects. */
export async function listSchedules(
  db: Db,
  userId: number,
  page: { limit: number; offset: number },
): Promise<ListedScheduleRow[]> {
  const rows = await db
    .selectFrom('schedules')
    .leftJoin('reports', 'reports.id', 'schedules.report_id')
    .leftJoin('projects', 'projects.id', 'schedules.project_id')
    .select([
      ...columns,
      'reports.url',
      'reports.project as report_project',
      'projects.name as project',
      'projects.settings as project_settings',
    ])
    .where('schedules.org_id', '=', userId)
    .orderBy('schedules.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((r) => ({
    ...toRow(r),
    url: r.url,
    projectName: r.project ?? r.report_project,
    projectSettings: r.project_settings,
  }));
}

/** The schedules of these reports of a user (the dashboard): report id → schedule. */
export async function schedulesOfReports(
  db: Db,
  userId: number,
  reportIds: readonly number[],
): Promise<ScheduleRow[]> {
  const ids = reportIds.filter(validId);
  if (ids.length === 0) return [];
  const rows = await scheduleQuery(db)
    .where('schedules.org_id', '=', userId)
    .where('schedules.report_id', 'in', ids)
    .execute();
  return rows.map(toRow);
}

/**
 * Due schedules, locked for the caller's transaction: next_run_at has come, and no run of
 * theirs is in progress (or the one that is was claimed before `staleBefore`: its job died).
 * PostgreSQL skips rows another process holds; on SQLite the transaction holds the write lock.
 */
export async function lockDueSchedules(
  trx: Db,
  at: { now: string; staleBefore: string; limit: number },
): Promise<ScheduleRow[]> {
  // no join: PostgreSQL locks the schedules rows only (the claim needs no project's name)
  let q = trx
    .selectFrom('schedules')
    .select(columns)
    .where('next_run_at', '<=', at.now)
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', at.staleBefore)]))
    .orderBy('next_run_at')
    .limit(at.limit);
  if (dialectOf(trx) === 'postgres') q = q.forUpdate().skipLocked();
  return (await q.execute()).map(toRow);
}

/**
 * Moves a locked due schedule to its next run and marks the slot it is about to run as
 * claimed. Guarded by the `next_run_at` read under the lock (compare-and-set): 0 rows when
 * something else moved it meanwhile.
 */
export async function claimSchedule(
  trx: Db,
  id: number,
  c: { expectedNextRunAt: string; nextRunAt: string; slot: string; now: string },
): Promise<boolean> {
  const r = await trx
    .updateTable('schedules')
    .set({ next_run_at: c.nextRunAt, claimed_slot: c.slot, claimed_at: c.now, run_started_at: null })
    .where('id', '=', id)
    .where('next_run_at', '=', c.expectedNextRunAt)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Records a finished run of `slot` and frees the schedule for its next one. */
/**
 * A run of the claimed `slot` starts: it marks the claim as running, unless another execution
 * of the same job did so less than `takeoverMs` ago (that one may still be running: at-least-once
 * delivery can hand a job out twice). A job handed out again after its worker died comes after
 * its lease expired, so after `takeoverMs` (the kind's lease), and takes the run over.
 */
export async function startScheduledRun(
  db: Db,
  id: number,
  slot: string,
  nowMs: number,
  takeoverMs: number,
): Promise<boolean> {
  const r = await db
    .updateTable('schedules')
    .set({ run_started_at: nowMs })
    .where('id', '=', id)
    .where('claimed_slot', '=', slot)
    .where((eb) => eb.or([eb('run_started_at', 'is', null), eb('run_started_at', '<', nowMs - takeoverMs)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function finishScheduledRun(
  db: Db,
  id: number,
  f: {
    slot: string;
    status: ScheduleStatus;
    error: string | null;
    runNumber: number | null;
    /** a project's: the batch the slot started (undefined: the last one stays) */
    batchId?: number | undefined;
    at: string;
  },
): Promise<void> {
  await db
    .updateTable('schedules')
    .set({
      last_slot: f.slot,
      last_run_at: f.at,
      last_status: f.status,
      last_error: f.error,
      last_run_number: f.runNumber,
      ...(f.batchId === undefined ? {} : { last_batch_id: f.batchId }),
      claimed_slot: sql<string | null>`CASE WHEN claimed_slot = ${f.slot} THEN NULL ELSE claimed_slot END`,
      claimed_at: sql<string | null>`CASE WHEN claimed_slot = ${f.slot} THEN NULL ELSE claimed_at END`,
      run_started_at: sql<
        number | null
      >`CASE WHEN claimed_slot = ${f.slot} THEN NULL ELSE run_started_at END`,
    })
    .where('id', '=', id)
    .execute();
}

/** The newest run of a report (the current one, or a newer failed one): what started it, and when. */
export async function newestRunOf(
  db: Db,
  reportId: number,
): Promise<{ number: number; source: string | null; status: 'completed' | 'failed'; at: string } | null> {
  const report = await db
    .selectFrom('reports')
    .select(['run_number', 'latest_run_number', 'run_source', 'generated_at'])
    .where('id', '=', reportId)
    .executeTakeFirst();
  if (!report) return null;
  const latest = toNumber(report.latest_run_number);
  if (latest === toNumber(report.run_number)) {
    return { number: latest, source: report.run_source, status: 'completed', at: toIso(report.generated_at) };
  }
  const run = await db
    .selectFrom('report_runs')
    .select(['source', 'status', 'generated_at'])
    .where('report_id', '=', reportId)
    .where('number', '=', latest)
    .executeTakeFirst();
  if (!run) return null;
  return {
    number: latest,
    source: run.source,
    status: run.status as 'completed' | 'failed',
    at: toIso(run.generated_at),
  };
}

export async function setNextRunAt(db: Db, id: number, nextRunAt: string): Promise<void> {
  await db.updateTable('schedules').set({ next_run_at: nextRunAt }).where('id', '=', id).execute();
}

// ── a project's schedule (docs/sites.md "Scheduled crawls") ─────────────────────────────

/** A project's schedule, scoped to its owner (null: none). */
export async function findScheduleOfProject(
  db: Db,
  userId: number,
  project: string,
): Promise<ScheduleRow | null> {
  const r = await scheduleQuery(db)
    .innerJoin('projects', 'projects.id', 'schedules.project_id')
    .where('projects.org_id', '=', userId)
    .where('projects.name', '=', project)
    .executeTakeFirst();
  return r ? toRow(r) : null;
}

/**
 * Sets a project's schedule (a new one, or new `every`/`timezone` for its one); returns its id.
 * The project's row must exist (the caller saved its settings in the same transaction).
 */
export async function upsertProjectSchedule(
  db: Db,
  s: { userId: number; project: string; every: string; timezone: string; nextRunAt: string; now: string },
): Promise<number> {
  const project = await db
    .selectFrom('projects')
    .select('id')
    .where('org_id', '=', s.userId)
    .where('name', '=', s.project)
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('schedules')
    .values({
      project_id: project.id,
      org_id: s.userId,
      every: s.every,
      timezone: s.timezone,
      next_run_at: s.nextRunAt,
      created_at: s.now,
      updated_at: s.now,
    })
    .onConflict((oc) =>
      oc.column('project_id').doUpdateSet({
        every: s.every,
        timezone: s.timezone,
        next_run_at: s.nextRunAt,
        updated_at: s.now,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Removes a project's schedule; true when there was one. */
export async function deleteScheduleOfProject(db: Db, userId: number, project: string): Promise<boolean> {
  const r = await db
    .deleteFrom('schedules')
    .where('project_id', 'in', (eb) =>
      eb.selectFrom('projects').select('id').where('org_id', '=', userId).where('name', '=', project),
    )
    .executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** The project's newest batch still queued or running (the (org_id, project, id) index), or null. */
export async function activeProjectBatch(
  db: Db,
  userId: number,
  project: string,
): Promise<{ id: number; status: string } | null> {
  const r = await db
    .selectFrom('batches')
    .select(['id', 'status'])
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .where('status', 'in', ['queued', 'running'])
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r ?? null;
}

/** The project's newest batch created at or after `since` (a slot's crawl started by a run that died). */
export async function projectBatchSince(
  db: Db,
  userId: number,
  project: string,
  since: string,
): Promise<number | null> {
  const r = await db
    .selectFrom('batches')
    .select('id')
    .where('org_id', '=', userId)
    .where('project', '=', project)
    .where('created_at', '>=', since)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return r?.id ?? null;
}
