// Seeds a migrated Pagegrade database with N reports, straight through the store's schema
// (not through the API), keeping everything the application keeps in step: per-project and
// per-user counters, project creation dates, and the search indexes (SQLite FTS5 trigram
// tables, PostgreSQL pg_trgm GIN indexes).
//
// Fast paths: SQLite — one prepared statement, 50,000 rows a transaction, journal off while
// loading, secondary indexes and FTS triggers dropped first and rebuilt after. PostgreSQL —
// 10,000 rows a statement through unnest() of arrays (the large JSON texts are joined in from
// a temporary table of templates, so each isn't sent a million times), indexes dropped first
// and rebuilt after with a big maintenance_work_mem. Both run ANALYZE at the end.
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { createDb, migrate } from '../../src/store/database.js';
import {
  makePath,
  makeScore,
  makeSites,
  prng,
  BANDS,
  type Band,
  type Site,
  type Templates,
} from './corpus.js';

export interface SeedOptions {
  /** reports of the main user */
  reports: number;
  /** its sites (projects) */
  projects: number;
  /** reports of a second user, over a few projects of its own */
  otherUserReports: number;
  templates: Templates;
  seed?: number;
  log?: (line: string) => void;
}

export interface SeedResult {
  /** the main owner: an organisation (docs/teams.md) */
  userId: number;
  /** its owner, a person of the same name (for keys.create) */
  userName: string;
  otherUserId: number;
  reports: number;
  projects: number;
  /** the main user's biggest project and a median one */
  bigProject: string;
  medianProject: string;
  /** id range of the main user's reports */
  minId: number;
  maxId: number;
  ms: number;
}

interface PlannedRow {
  userId: number;
  url: string;
  finalUrl: string;
  project: string;
  band: Band;
  rank: number;
  score: number;
  privacy: number;
  at: string;
}

/** Generates the rows in creation order, in batches, with the counters they imply. */
class Plan {
  readonly sites: Site[];
  readonly otherSites: Site[];
  readonly perProject = new Map<string, { userIndex: 0 | 1; count: number; firstAt: string }>();
  readonly perUser = [
    { reports: 0, good: 0, decent: 0, bad: 0 },
    { reports: 0, good: 0, decent: 0, bad: 0 },
  ];
  private readonly rand: () => number;
  private readonly total: number;
  private readonly start: number;
  private readonly step: number;
  private made = 0;

  constructor(private readonly opts: SeedOptions) {
    this.rand = prng(opts.seed ?? 42);
    this.sites = makeSites(opts.projects, this.rand);
    this.otherSites = makeSites(Math.min(5, Math.max(1, opts.otherUserReports)), prng(7)).map((s) => ({
      host: `other-${s.host}`,
      project: `other-${s.project}`,
    }));
    this.total = opts.reports + opts.otherUserReports;
    // two years of history up to an hour ago
    this.start = Date.now() - 2 * 365 * 86_400_000;
    this.step = (2 * 365 * 86_400_000 - 3_600_000) / Math.max(1, this.total);
  }

  /** the next `n` rows (fewer at the end), ids ascending with creation time */
  next(n: number): PlannedRow[] {
    const rows: PlannedRow[] = [];
    while (rows.length < n && this.made < this.total) {
      const i = this.made++;
      // the second user's few reports come last, so the main user's ids are one contiguous range
      const other = i >= this.opts.reports;
      const userIndex = other ? 1 : 0;
      let site: Site;
      if (other) {
        site = this.otherSites[Math.floor(this.rand() * this.otherSites.length)]!;
      } else {
        // skewed: density ∝ 1/√x — the biggest site gets ~1.4 % of the reports, the tail a few
        const r = this.rand();
        site = this.sites[Math.min(this.sites.length - 1, Math.floor(this.sites.length * r * r))]!;
      }
      const scheme = this.rand() < 0.9 ? 'https' : 'http';
      const url = `${scheme}://${site.host}${makePath(this.rand)}`;
      const finalUrl = scheme === 'http' ? url.replace(/^http:/, 'https:') : url;
      const { score, band, rank } = makeScore(this.rand);
      const at = new Date(this.start + i * this.step).toISOString();
      const privacy = this.rand() < 0.9 ? 0 : 1;
      rows.push({ userId: userIndex, url, finalUrl, project: site.project, band, rank, score, privacy, at });

      const u = this.perUser[userIndex]!;
      u.reports++;
      u[band]++;
      const p = this.perProject.get(site.project);
      if (p) p.count++;
      else this.perProject.set(site.project, { userIndex, count: 1, firstAt: at });
    }
    return rows;
  }
}

function summary(plan: Plan): Pick<SeedResult, 'bigProject' | 'medianProject' | 'projects'> {
  const mine = [...plan.perProject.entries()]
    .filter(([, p]) => p.userIndex === 0)
    .sort((a, b) => b[1].count - a[1].count);
  return {
    bigProject: mine[0]![0],
    medianProject: mine[Math.floor(mine.length / 2)]![0],
    projects: plan.perProject.size,
  };
}

// ─────────────────────────────────────────────────────────────────────────────────────────
// SQLite

export async function seedSqlite(path: string, opts: SeedOptions): Promise<SeedResult> {
  const log = opts.log ?? (() => {});
  const started = Date.now();
  const handle = createDb(`sqlite:${path}`);
  await migrate(handle.db);
  await handle.close();

  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144'); // 256 MB
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = OFF');

  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('reports', 'projects') AND sql IS NOT NULL`,
    )
    .all() as { name: string; sql: string }[];
  const triggers = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('reports', 'projects')`,
    )
    .all() as { name: string; sql: string }[];
  for (const i of indexes) db.exec(`DROP INDEX ${i.name}`);
  for (const t of triggers) db.exec(`DROP TRIGGER ${t.name}`);

  const now = new Date().toISOString();
  // each owner: an organisation, and a person of the same name who owns it
  const insertOrg = db.prepare(
    `INSERT INTO organizations (name, created_at, projects_count, reports_count, good_count, decent_count, bad_count) VALUES (?, ?, 0, 0, 0, 0, 0)`,
  );
  const insertPerson = db.prepare(`INSERT INTO users (name, created_at) VALUES (?, ?)`);
  const insertOwner = db.prepare(
    `INSERT INTO memberships (org_id, user_id, role, created_at) VALUES (?, ?, 'owner', ?)`,
  );
  const names = [`bench-${Date.now()}`, `bench-other-${Date.now()}`];
  const userIds = names.map((name) => {
    const org = Number(insertOrg.run(name, now).lastInsertRowid);
    insertOwner.run(org, Number(insertPerson.run(name, now).lastInsertRowid), now);
    return org;
  });

  const insert = db.prepare(
    `INSERT INTO reports (org_id, url, final_url, project, result, result_rank, score, privacy, password_hash,
       categories, results, page, generated_at, created_at, updated_at, high_issues, medium_issues, low_issues)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const t = opts.templates.byBand;
  const issues = {
    good: issueCounts(t.good.results),
    decent: issueCounts(t.decent.results),
    bad: issueCounts(t.bad.results),
  };
  const plan = new Plan(opts);
  const insertBatch = db.transaction((rows: PlannedRow[]) => {
    for (const r of rows) {
      const tpl = t[r.band];
      insert.run(
        userIds[r.userId],
        r.url,
        r.finalUrl,
        r.project,
        r.band,
        r.rank,
        r.score,
        r.privacy,
        tpl.categories,
        tpl.results,
        tpl.page,
        r.at,
        r.at,
        r.at,
        issues[r.band].high,
        issues[r.band].medium,
        issues[r.band].low,
      );
    }
  });
  let done = 0;
  for (;;) {
    const rows = plan.next(50_000);
    if (rows.length === 0) break;
    insertBatch(rows);
    done += rows.length;
    if (done % 200_000 < 50_000)
      log(`  sqlite: ${done} reports (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }

  const insertProject = db.prepare(
    `INSERT INTO projects (org_id, name, created_at, reports_count) VALUES (?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const [name, p] of plan.perProject)
      insertProject.run(userIds[p.userIndex], name, p.firstAt, p.count);
    const setUser = db.prepare(
      `UPDATE organizations SET projects_count = ?, reports_count = ?, good_count = ?, decent_count = ?, bad_count = ? WHERE id = ?`,
    );
    plan.perUser.forEach((u, k) => {
      const projects = [...plan.perProject.values()].filter((p) => p.userIndex === k).length;
      setUser.run(projects, u.reports, u.good, u.decent, u.bad, userIds[k]);
    });
  })();

  const phase = (name: string, fn: () => void): void => {
    const t0 = Date.now();
    fn();
    log(`  sqlite: ${name} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  };
  log(`  sqlite: ${done} reports inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  phase(`${indexes.length} indexes rebuilt`, () => {
    for (const i of indexes) db.exec(i.sql);
  });
  phase('search index rebuilt', () => {
    db.exec(`INSERT INTO reports_fts (reports_fts) VALUES ('rebuild')`);
    db.exec(`INSERT INTO projects_fts (projects_fts) VALUES ('rebuild')`);
    for (const tr of triggers) db.exec(tr.sql);
  });
  phase('ANALYZE', () => db.exec('ANALYZE'));
  db.pragma('journal_mode = WAL');
  const range = db
    .prepare(`SELECT min(id) AS min, max(id) AS max FROM reports WHERE org_id = ?`)
    .get(userIds[0]) as {
    min: number;
    max: number;
  };
  db.close();
  return {
    userId: userIds[0]!,
    userName: names[0]!,
    otherUserId: userIds[1]!,
    reports: done,
    ...summary(plan),
    minId: range.min,
    maxId: range.max,
    ms: Date.now() - started,
  };
}

// ─────────────────────────────────────────────────────────────────────────────────────────
// PostgreSQL

export async function seedPostgres(url: string, opts: SeedOptions): Promise<SeedResult> {
  const log = opts.log ?? (() => {});
  const started = Date.now();
  const handle = createDb(url);
  await migrate(handle.db);
  await handle.close();

  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`SET synchronous_commit = off`);
    await c.query(`SET maintenance_work_mem = '1GB'`);
    await c.query(`SET max_parallel_maintenance_workers = 2`);
    const { rows: indexes } = await c.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = current_schema() AND i.tablename IN ('reports', 'projects')
          AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
    );
    for (const i of indexes) await c.query(`DROP INDEX ${i.indexname}`);

    const now = new Date().toISOString();
    const ids: number[] = [];
    const names = [`bench-${Date.now()}`, `bench-other-${Date.now()}`];
    // each owner: an organisation, and a person of the same name who owns it
    for (const name of names) {
      const r = await c.query<{ id: number }>(
        `INSERT INTO organizations (name, created_at) VALUES ($1, $2) RETURNING id`,
        [name, now],
      );
      const person = await c.query<{ id: number }>(
        `INSERT INTO users (name, created_at) VALUES ($1, $2) RETURNING id`,
        [name, now],
      );
      await c.query(`INSERT INTO memberships (org_id, user_id, role, created_at) VALUES ($1, $2, 'owner', $3)`, [
        r.rows[0]!.id,
        person.rows[0]!.id,
        now,
      ]);
      ids.push(r.rows[0]!.id);
    }

    await c.query(
      `CREATE TEMP TABLE bench_templates (band text PRIMARY KEY, categories text, results text, page text,
         high int, medium int, low int)`,
    );
    for (const band of BANDS) {
      const t = opts.templates.byBand[band];
      const n = issueCounts(t.results);
      await c.query(`INSERT INTO bench_templates VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
        band,
        t.categories,
        t.results,
        t.page,
        n.high,
        n.medium,
        n.low,
      ]);
    }

    const plan = new Plan(opts);
    let done = 0;
    for (;;) {
      const rows = plan.next(10_000);
      if (rows.length === 0) break;
      await c.query(
        `INSERT INTO reports (org_id, url, final_url, project, result, result_rank, score, privacy,
           categories, results, page, generated_at, created_at, updated_at, high_issues, medium_issues, low_issues)
         SELECT u.org_id, u.url, u.final_url, u.project, u.band, u.rank, u.score, u.privacy,
                t.categories, t.results, t.page, u.at, u.at, u.at, t.high, t.medium, t.low
           FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[], $8::int[], $9::timestamptz[])
                WITH ORDINALITY AS u(org_id, url, final_url, project, band, rank, score, privacy, at, ord)
           JOIN bench_templates t ON t.band = u.band
          ORDER BY u.ord`,
        [
          rows.map((r) => ids[r.userId]),
          rows.map((r) => r.url),
          rows.map((r) => r.finalUrl),
          rows.map((r) => r.project),
          rows.map((r) => r.band),
          rows.map((r) => r.rank),
          rows.map((r) => r.score),
          rows.map((r) => r.privacy),
          rows.map((r) => r.at),
        ],
      );
      done += rows.length;
      if (done % 100_000 < 10_000)
        log(`  postgres: ${done} reports (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    }

    const projects = [...plan.perProject.entries()];
    await c.query(
      `INSERT INTO projects (org_id, name, created_at, reports_count)
       SELECT * FROM unnest($1::int[], $2::text[], $3::timestamptz[], $4::int[])`,
      [
        projects.map(([, p]) => ids[p.userIndex]),
        projects.map(([n]) => n),
        projects.map(([, p]) => p.firstAt),
        projects.map(([, p]) => p.count),
      ],
    );
    for (const [k, u] of plan.perUser.entries()) {
      const projectsCount = projects.filter(([, p]) => p.userIndex === k).length;
      await c.query(
        `UPDATE organizations SET projects_count = $1, reports_count = $2, good_count = $3, decent_count = $4, bad_count = $5 WHERE id = $6`,
        [projectsCount, u.reports, u.good, u.decent, u.bad, ids[k]],
      );
    }

    log(`  postgres: rebuilding ${indexes.length} indexes (trigram GIN included)`);
    for (const i of indexes) await c.query(i.indexdef);
    await c.query('VACUUM ANALYZE reports');
    await c.query('VACUUM ANALYZE projects');
    await c.query('ANALYZE organizations');
    const range = await c.query<{ min: number; max: number }>(
      `SELECT min(id) AS min, max(id) AS max FROM reports WHERE org_id = $1`,
      [ids[0]],
    );
    return {
      userId: ids[0]!,
      userName: names[0]!,
      otherUserId: ids[1]!,
      reports: done,
      ...summary(plan),
      minId: range.rows[0]!.min,
      maxId: range.rows[0]!.max,
      ms: Date.now() - started,
    };
  } finally {
    await c.end();
  }
}

/** A report's failed checks by priority, as the store keeps them beside `results`. */
function issueCounts(results: string): { high: number; medium: number; low: number } {
  const n = { high: 0, medium: 0, low: 0 };
  for (const c of Object.values(
    JSON.parse(results) as Record<string, { priority?: string; passed?: unknown }>,
  ))
    if (c.passed === false && (c.priority === 'high' || c.priority === 'medium' || c.priority === 'low'))
      n[c.priority]++;
  return n;
}
