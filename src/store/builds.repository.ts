// builds and build_pages (issue 23 §2; docs/ci.md "Builds"): every SQL statement on them.
import type { Db } from './database.js';
import { toIso, toNumber } from './sql-helpers.js';

/** What one assertion of `pagegrade ci` said about a URL (as the CLI sends it). */
export interface BuildAssertion {
  id: string;
  kind: string;
  level: 'warn' | 'error';
  /** true held, false failed, null not judged */
  passed: boolean | null;
  actual: number | null;
  expected: string;
}

/** One URL of a build, as stored (build_pages). */
export interface BuildPageData {
  url: string;
  path: string;
  reportId: number | null;
  runNumber: number;
  score: number;
  result: string;
  checks: Record<string, { passed: boolean | null; title: string }>;
  figures: Record<string, number | null>;
  assertions: BuildAssertion[];
}

export interface BuildRow {
  id: number;
  orgId: number;
  project: string;
  commitSha: string;
  branch: string;
  baseBranch: string | null;
  ancestorSha: string | null;
  author: string | null;
  message: string | null;
  runUrl: string | null;
  baseBuildId: number | null;
  createdAt: string;
}

const COLUMNS = [
  'id',
  'org_id',
  'project',
  'commit_sha',
  'branch',
  'base_branch',
  'ancestor_sha',
  'author',
  'message',
  'run_url',
  'base_build_id',
  'created_at',
] as const;

type Raw = {
  id: number;
  org_id: number;
  project: string;
  commit_sha: string;
  branch: string;
  base_branch: string | null;
  ancestor_sha: string | null;
  author: string | null;
  message: string | null;
  run_url: string | null;
  base_build_id: number | null;
  created_at: Date | string;
};

const toRow = (r: Raw): BuildRow => ({
  id: toNumber(r.id),
  orgId: toNumber(r.org_id),
  project: r.project,
  commitSha: r.commit_sha,
  branch: r.branch,
  baseBranch: r.base_branch,
  ancestorSha: r.ancestor_sha,
  author: r.author,
  message: r.message,
  runUrl: r.run_url,
  baseBuildId: r.base_build_id === null ? null : toNumber(r.base_build_id),
  createdAt: toIso(r.created_at),
});

export async function insertBuild(db: Db, b: Omit<BuildRow, 'id'>): Promise<BuildRow> {
  const row = await db
    .insertInto('builds')
    .values({
      org_id: b.orgId,
      project: b.project,
      commit_sha: b.commitSha,
      branch: b.branch,
      base_branch: b.baseBranch,
      ancestor_sha: b.ancestorSha,
      author: b.author,
      message: b.message,
      run_url: b.runUrl,
      base_build_id: b.baseBuildId,
      created_at: b.createdAt,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return toRow(row);
}

export async function insertBuildPage(db: Db, buildId: number, p: BuildPageData): Promise<void> {
  await db
    .insertInto('build_pages')
    .values({
      build_id: buildId,
      url: p.url,
      path: p.path,
      report_id: p.reportId,
      run_number: p.runNumber,
      score: p.score,
      result: p.result,
      checks: JSON.stringify(p.checks),
      figures: JSON.stringify(p.figures),
      assertions: JSON.stringify(p.assertions),
    })
    .execute();
}

/** The organisation's build `id`, or null. */
export async function findBuild(db: Db, orgId: number, id: number): Promise<BuildRow | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) return null;
  const row = await db
    .selectFrom('builds')
    .select(COLUMNS)
    .where('id', '=', id)
    .where('org_id', '=', orgId)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

/** A build's pages in the order they were sent. */
export async function buildPages(db: Db, buildId: number): Promise<BuildPageData[]> {
  const rows = await db
    .selectFrom('build_pages')
    .selectAll()
    .where('build_id', '=', buildId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    url: r.url,
    path: r.path,
    reportId: r.report_id === null ? null : toNumber(r.report_id),
    runNumber: toNumber(r.run_number),
    score: toNumber(r.score),
    result: r.result,
    checks: JSON.parse(r.checks) as BuildPageData['checks'],
    figures: JSON.parse(r.figures) as BuildPageData['figures'],
    assertions: JSON.parse(r.assertions) as BuildAssertion[],
  }));
}

/** The newest `limit` builds of a project's branch made before build `beforeId`, newest first. */
export async function branchBuildsBefore(
  db: Db,
  orgId: number,
  project: string,
  branch: string,
  beforeId: number,
  limit: number,
): Promise<BuildRow[]> {
  const rows = await db
    .selectFrom('builds')
    .select(COLUMNS)
    .where('org_id', '=', orgId)
    .where('project', '=', project)
    .where('branch', '=', branch)
    .where('id', '<', beforeId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRow);
}

/** A project's builds, newest first (one branch's when given), and how many there are. */
export async function listBuilds(
  db: Db,
  orgId: number,
  project: string,
  o: { branch?: string; limit: number; offset: number },
): Promise<{ items: BuildRow[]; total: number }> {
  let q = db.selectFrom('builds').where('org_id', '=', orgId).where('project', '=', project);
  if (o.branch !== undefined) q = q.where('branch', '=', o.branch);
  const [rows, count] = await Promise.all([
    q.select(COLUMNS).orderBy('id', 'desc').limit(o.limit).offset(o.offset).execute(),
    q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toRow), total: toNumber(count.n) };
}

/** Whether any build of the project names `branch` as its base branch (then it is kept whole). */
export async function isBaseBranch(db: Db, orgId: number, project: string, branch: string): Promise<boolean> {
  const row = await db
    .selectFrom('builds')
    .select('id')
    .where('org_id', '=', orgId)
    .where('project', '=', project)
    .where('base_branch', '=', branch)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes the builds of a branch past the newest `keep` (their pages go with them): how many. */
export async function pruneBranch(
  db: Db,
  orgId: number,
  project: string,
  branch: string,
  keep: number,
): Promise<number> {
  const old = await db
    .selectFrom('builds')
    .select('id')
    .where('org_id', '=', orgId)
    .where('project', '=', project)
    .where('branch', '=', branch)
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1_000_000)
    .execute();
  if (old.length === 0) return 0;
  const ids = old.map((r) => toNumber(r.id));
  // the builds compared with a pruned one keep their own pages; their base is no longer there
  await db.updateTable('builds').set({ base_build_id: null }).where('base_build_id', 'in', ids).execute();
  await db.deleteFrom('build_pages').where('build_id', 'in', ids).execute();
  await db.deleteFrom('builds').where('id', 'in', ids).execute();
  return ids.length;
}

/** The build a build is compared with. */
export async function setBaseBuild(db: Db, id: number, baseId: number): Promise<void> {
  await db.updateTable('builds').set({ base_build_id: baseId }).where('id', '=', id).execute();
}

/** The report's current run was made by a build (reports.run_source `build`). */
export async function markBuildRun(db: Db, reportId: number): Promise<void> {
  await db.updateTable('reports').set({ run_source: 'build' }).where('id', '=', reportId).execute();
}
