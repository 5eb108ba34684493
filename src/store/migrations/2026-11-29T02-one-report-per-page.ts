// One report per page (docs/sites.md, "One report per page"): a crawl adds a run to the
// project's report of a page instead of making another report.
//
// - `reports.page_key`: the page a report is of — the crawler's normal form of its URL
//   (fragment dropped, runs of slashes collapsed, tracking parameters removed), indexed with
//   (user_id, project) for the crawl's look-up. Filled here for every report, in JavaScript
//   (SQL has no portable URL parser) with a frozen copy of the rule and the default list of
//   tracking parameters.
// - `reports.run_batch_id` / `report_runs.batch_id`: the crawl that made a run (source `batch`).
//   The first run of a report an earlier crawl made is marked so here (source `batch`, its
//   batch), where it is still kept.
// - The duplicates earlier crawls made are merged: the reports of one user, project and page key
//   of which at least one is a batch's (batch_pages.report_id) become one report. It keeps the
//   OLDEST report's id (the address shared first), the strictest privacy of the group (private,
//   then password — the newest password report's password —, then public: nothing becomes more
//   public than it was), and the union of the group's runs, renumbered 1..n by generated_at,
//   the newest completed one as the current results. batch_pages and a schedule point at it
//   (the survivor's own schedule, else the newest of the group's), the other reports are
//   deleted, and the users' and projects' counters are counted again for what was merged.
//   Not undone by `down` (the columns go; the merged reports stay merged).
// Frozen once released: never imports application code, never edited.
import { sql, type Kysely } from 'kysely';

/** The crawler's default tracking parameters when this migration was written (`*` ends a prefix). */
const TRACKING = ['utm_*', 'gclid', 'fbclid', 'msclkid', 'mc_cid', 'mc_eid', '_ga'];

/** rows read at a time */
const CHUNK = 500;

const tracking = (name: string) => {
  const n = name.toLowerCase();
  return TRACKING.some((p) => (p.endsWith('*') ? n.startsWith(p.slice(0, -1)) : n === p));
};

/** The crawler's normal form of a stored report URL (src/crawl/url.ts on 2026-11-29), or the URL as it is. */
function pageKey(url: string): string {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return url;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return url;
  if (!u.hostname || u.username !== '' || u.password !== '') return url;
  u.hash = '';
  u.pathname = u.pathname.replace(/\/{2,}/g, '/');
  if (u.search !== '') {
    const kept = [...u.searchParams].filter(([k]) => !tracking(k));
    u.search = kept.length === 0 ? '' : new URLSearchParams(kept).toString();
  }
  return u.href;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const iso = (v: unknown): string => (v instanceof Date ? v.toISOString() : String(v));
const num = (v: unknown): number => Number(v);

/** The audit columns a run has, wherever it is kept. */
interface RunCols {
  status: 'completed' | 'failed';
  source: string | null;
  batch_id: number | null;
  error: string | null;
  final_url: string | null;
  result: string | null;
  score: number | null;
  categories: string | null;
  results: string | null;
  page: string | null;
  render: string | null;
  generated_at: string;
  /** ordering of runs made at the same instant: their report, then their number */
  report: number;
  number: number;
}

const RESULT_RANK: Record<string, number> = { good: 0, decent: 1, bad: 2 };

/** The failed checks of each priority of a run's results text (the reports' *_issues columns). */
function issues(results: string): { high_issues: number; medium_issues: number; low_issues: number } {
  const n = { high_issues: 0, medium_issues: 0, low_issues: 0 };
  const parsed = JSON.parse(results) as Record<string, { priority?: string; passed?: unknown }>;
  for (const r of Object.values(parsed)) {
    if (r.passed !== false) continue;
    if (r.priority === 'high') n.high_issues++;
    else if (r.priority === 'medium') n.medium_issues++;
    else if (r.priority === 'low') n.low_issues++;
  }
  return n;
}

async function fillPageKeys(db: Db): Promise<void> {
  // most URLs are their own key: one statement, then the others one by one
  await sql.raw(`UPDATE reports SET page_key = url`).execute(db);
  for (let after = 0; ;) {
    const rows = (await db
      .selectFrom('reports')
      .select(['id', 'url'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(CHUNK)
      .execute()) as { id: number; url: string }[];
    if (rows.length === 0) break;
    for (const r of rows) {
      const key = pageKey(r.url);
      if (key !== r.url)
        await db.updateTable('reports').set({ page_key: key }).where('id', '=', r.id).execute();
    }
    after = rows[rows.length - 1]!.id;
  }
}

/** The first run of a report a crawl made was that crawl's (its source was not recorded then). */
async function markCrawlRuns(db: Db): Promise<void> {
  const first = `(SELECT MIN(bp.batch_id) FROM batch_pages bp WHERE bp.report_id = %s)`;
  await sql
    .raw(
      `UPDATE reports SET run_source = 'batch', run_batch_id = ${first.replace('%s', 'reports.id')}
       WHERE run_number = 1 AND run_source IS NULL
         AND id IN (SELECT report_id FROM batch_pages WHERE report_id IS NOT NULL)`,
    )
    .execute(db);
  await sql
    .raw(
      `UPDATE report_runs SET source = 'batch', batch_id = ${first.replace('%s', 'report_runs.report_id')}
       WHERE number = 1 AND source IS NULL
         AND report_id IN (SELECT report_id FROM batch_pages WHERE report_id IS NOT NULL)`,
    )
    .execute(db);
}

/** Privacy ranks: private (1) is the strictest, then a password (2), then public (0). */
const STRICTNESS: Record<number, number> = { 0: 0, 2: 1, 1: 2 };

/** A row as read (every column; their types differ by dialect). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

async function mergeGroup(db: Db, ids: number[], now: string): Promise<void> {
  const reports = (await db
    .selectFrom('reports')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy('id')
    .execute()) as Row[];
  const kept = (await db
    .selectFrom('report_runs')
    .selectAll()
    .where('report_id', 'in', ids)
    .execute()) as Row[];
  const runs: RunCols[] = [
    ...reports.map((r) => ({
      status: 'completed' as const,
      source: r.run_source,
      batch_id: r.run_batch_id === null ? null : num(r.run_batch_id),
      error: null,
      final_url: r.final_url,
      result: r.result,
      score: num(r.score),
      categories: r.categories,
      results: r.results,
      page: r.page,
      render: r.render,
      generated_at: iso(r.generated_at),
      report: num(r.id),
      number: num(r.run_number),
    })),
    ...kept.map((k) => ({
      status: k.status,
      source: k.source,
      batch_id: k.batch_id === null ? null : num(k.batch_id),
      error: k.error,
      final_url: k.final_url,
      result: k.result,
      score: k.score === null ? null : num(k.score),
      categories: k.categories,
      results: k.results,
      page: k.page,
      render: k.render,
      generated_at: iso(k.generated_at),
      report: num(k.report_id),
      number: num(k.number),
    })),
  ];
  runs.sort(
    (a, b) =>
      Date.parse(a.generated_at) - Date.parse(b.generated_at) || a.report - b.report || a.number - b.number,
  );
  // the newest completed run is the current results; the one before it gives the trend
  const completed = (i: number) => runs[i]!.status === 'completed';
  let current = runs.length - 1;
  while (current > 0 && !completed(current)) current--;
  let previous = current - 1;
  while (previous >= 0 && !completed(previous)) previous--;
  const cur = runs[current]!;

  const survivor = reports[0]!;
  const survivorId = num(survivor.id);
  const strictest = reports.reduce((best, r) =>
    STRICTNESS[num(r.privacy)]! > STRICTNESS[num(best.privacy)]! ? r : best,
  );
  const privacy = num(strictest.privacy);
  const withPassword = reports.filter((r) => num(r.privacy) === 2 && r.password_hash !== null).at(-1);
  const passwordHash = privacy === 2 ? (withPassword?.password_hash ?? null) : null;
  // a changed privacy or password ends the passes given for the old one (they name updated_at)
  const settingsChanged = privacy !== num(survivor.privacy) || passwordHash !== survivor.password_hash;

  // the schedule: the survivor's own, else the newest of the group's
  const schedules = (await db
    .selectFrom('schedules')
    .select(['id', 'report_id'])
    .where('report_id', 'in', ids)
    .orderBy('id', 'desc')
    .execute()) as { id: number; report_id: number }[];
  const others = ids.filter((id) => id !== survivorId);
  if (schedules.length > 0 && !schedules.some((s) => num(s.report_id) === survivorId)) {
    await db
      .updateTable('schedules')
      .set({ report_id: survivorId })
      .where('id', '=', schedules[0]!.id)
      .execute();
  }
  await db
    .updateTable('batch_pages')
    .set({ report_id: survivorId })
    .where('report_id', 'in', others)
    .execute();

  await db.deleteFrom('report_runs').where('report_id', 'in', ids).execute();
  for (const [i, r] of runs.entries()) {
    if (i === current) continue;
    await db
      .insertInto('report_runs')
      .values({
        report_id: survivorId,
        number: i + 1,
        status: r.status,
        source: r.source,
        batch_id: r.batch_id,
        error: r.error,
        final_url: r.final_url,
        result: r.result,
        score: r.score,
        categories: r.categories,
        results: r.results,
        page: r.page,
        render: r.render,
        generated_at: r.generated_at,
      })
      .execute();
  }
  // the other reports go (their runs are the survivor's now; their other schedules with them)
  await db.deleteFrom('reports').where('id', 'in', others).execute();
  await db
    .updateTable('reports')
    .set({
      final_url: cur.final_url,
      result: cur.result,
      result_rank: RESULT_RANK[cur.result!] ?? 2,
      score: cur.score,
      categories: cur.categories,
      results: cur.results,
      page: cur.page,
      render: cur.render,
      ...issues(cur.results!),
      generated_at: cur.generated_at,
      run_number: current + 1,
      latest_run_number: runs.length,
      previous_score: previous >= 0 ? runs[previous]!.score : null,
      run_source: cur.source,
      run_batch_id: cur.batch_id,
      privacy,
      password_hash: passwordHash,
      ...(settingsChanged ? { updated_at: now } : {}),
    })
    .where('id', '=', survivorId)
    .execute();
}

/** The counters of the users and projects whose reports were merged, counted again. */
async function recount(db: Db, owners: Map<number, Set<string>>): Promise<void> {
  for (const [userId, projects] of owners) {
    const count = (extra: string) => `(SELECT COUNT(*) FROM reports r WHERE r.user_id = users.id${extra})`;
    await sql
      .raw(
        `UPDATE users SET reports_count = ${count('')},
           good_count = ${count(` AND r.result = 'good'`)},
           decent_count = ${count(` AND r.result = 'decent'`)},
           bad_count = ${count(` AND r.result = 'bad'`)},
           reports_version = reports_version + 1
         WHERE id = ${Number(userId)}`,
      )
      .execute(db);
    for (const project of projects) {
      await sql`UPDATE projects SET reports_count =
          (SELECT COUNT(*) FROM reports r WHERE r.user_id = projects.user_id AND r.project = projects.name)
        WHERE user_id = ${userId} AND name = ${project}`.execute(db);
    }
  }
}

async function mergeDuplicates(db: Db): Promise<void> {
  const now = new Date().toISOString();
  // the reports that share their user, project and page key with another: the duplicates
  const rows = (
    await sql<{ id: number; user_id: number; project: string; page_key: string }>`
    SELECT r.id, r.user_id, r.project, r.page_key FROM reports r
    WHERE EXISTS (SELECT 1 FROM reports o WHERE o.user_id = r.user_id AND o.project = r.project
                    AND o.page_key = r.page_key AND o.id <> r.id)
    ORDER BY r.user_id, r.project, r.page_key, r.id`.execute(db)
  ).rows;
  const groups = new Map<string, { userId: number; project: string; ids: number[] }>();
  for (const r of rows) {
    const key = JSON.stringify([num(r.user_id), r.project, r.page_key]);
    const g = groups.get(key) ?? { userId: num(r.user_id), project: r.project, ids: [] };
    g.ids.push(num(r.id));
    groups.set(key, g);
  }
  const owners = new Map<number, Set<string>>();
  for (const g of groups.values()) {
    // only groups a crawl took part in: reports a user made twice by hand stay two
    const byBatch = await db
      .selectFrom('batch_pages')
      .select('report_id')
      .where('report_id', 'in', g.ids)
      .limit(1)
      .executeTakeFirst();
    if (!byBatch) continue;
    await mergeGroup(db, g.ids, now);
    const projects = owners.get(g.userId) ?? new Set<string>();
    projects.add(g.project);
    owners.set(g.userId, projects);
  }
  await recount(db, owners);
}

export async function up(db: Db): Promise<void> {
  await sql.raw(`ALTER TABLE reports ADD COLUMN page_key TEXT`).execute(db);
  await sql.raw(`ALTER TABLE reports ADD COLUMN run_batch_id INTEGER`).execute(db);
  await sql.raw(`ALTER TABLE report_runs ADD COLUMN batch_id INTEGER`).execute(db);
  await fillPageKeys(db);
  await sql.raw(`CREATE INDEX reports_user_project_page ON reports (user_id, project, page_key)`).execute(db);
  await markCrawlRuns(db);
  await mergeDuplicates(db);
}

export async function down(db: Db): Promise<void> {
  await sql.raw(`DROP INDEX reports_user_project_page`).execute(db);
  await sql.raw(`ALTER TABLE report_runs DROP COLUMN batch_id`).execute(db);
  await sql.raw(`ALTER TABLE reports DROP COLUMN run_batch_id`).execute(db);
  await sql.raw(`ALTER TABLE reports DROP COLUMN page_key`).execute(db);
}
