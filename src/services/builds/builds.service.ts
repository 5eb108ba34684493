// Builds (issue 23 §2; docs/ci.md "Builds"): `pagegrade ci --upload` sends a project's build —
// its commit, branch, base branch and ancestor commit, and each URL's audit — and the server
// stores each URL's result as a run (source `build`) of that page's report in the project (the
// sites-over-time model: one report per page), compares the build with its base build
// (./compare.ts) and prunes the branch's old builds. Who may: the access table's builds.*; a
// key limited to projects sends and sees only its projects' builds.
import { projectName } from '../../analyzer/url.js';
import type { AuditReport } from '../../analyzer/types.js';
import { forbidden, notFound, validationError, type FieldErrors } from '../../errors.js';
import { withTransaction, type Db } from '../../store/database.js';
import { claimProject, findProject, findProjectSettings } from '../../store/projects.repository.js';
import { findPageReport, findReport } from '../../store/reports.repository.js';
import { findRunState } from '../../store/runs.repository.js';
import {
  branchBuildsBefore,
  buildPages,
  findBuild,
  insertBuild,
  insertBuildPage,
  isBaseBranch,
  listBuilds,
  markBuildRun,
  pruneBranch,
  setBaseBuild,
  type BuildPageData,
  type BuildRow,
} from '../../store/builds.repository.js';
import type { Privacy } from '../../store/reports.repository.js';
import { requireScope, seesProject } from '../access/rules.js';
import { auditColumns } from '../audit/audit.js';
import { withProjectRules } from '../audit/ignore.js';
import { pageKeyOf, storeAudit, storeRun } from '../audit/store.js';
import type { ServiceContext } from '../shared/context.js';
import type { Actor } from '../accounts/types.js';
import { compareBuild, type BuildRef } from './compare.js';
import { DEFAULT_BUILDS_KEEP_PER_BRANCH, type BuildInput, type BuildsServices, type BuildView } from './types.js';

/** base-branch builds looked through for the ancestor commit */
const ANCESTOR_WINDOW = 200;
const SHA = /^[0-9a-f]{7,40}$/;

const refOf = (b: BuildRow): BuildRef => ({ id: b.id, commit_sha: b.commitSha, branch: b.branch });
/** two SHAs name one commit when one is a prefix of the other (a short and a full SHA) */
const sameCommit = (a: string, b: string) => a.startsWith(b) || b.startsWith(a);

/** The URL's path and query: how pages of two builds are matched. */
function pathOf(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return `${u.pathname}${u.search}`;
  } catch {
    return null;
  }
}

function checkInput(input: BuildInput): void {
  const errors: FieldErrors = {};
  const sha = (field: string, v: string | null | undefined) => {
    if (v !== undefined && v !== null && !SHA.test(v.toLowerCase()))
      errors[field] = [`The ${field} must be a commit SHA: 7 to 40 hexadecimal characters.`];
  };
  sha('commit_sha', input.commitSha);
  sha('ancestor_sha', input.ancestorSha);
  if (projectName(input.project.trim()) === '') errors.project = ['The project must not be empty.'];
  for (const [field, v] of [
    ['branch', input.branch],
    ['base_branch', input.baseBranch],
  ] as const)
    if (v !== undefined && v !== null && v.trim() === '') errors[field] = [`The ${field} must not be empty.`];
  if (input.runUrl !== undefined && input.runUrl !== null && pathOf(input.runUrl) === null)
    errors.run_url = ['The run_url must be an http or https URL.'];
  if (input.pages.length === 0) errors.pages = ['The pages must hold at least one URL’s result.'];
  const seen = new Set<string>();
  input.pages.forEach((p, i) => {
    const path = pathOf(p.url);
    if (path === null) errors[`pages.${i}.url`] = ['The url must be an absolute http or https URL.'];
    else if (seen.has(path))
      errors[`pages.${i}.url`] = [`The path ${path} is in the build twice: one result per URL.`];
    else seen.add(path);
  });
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * The project's default_privacy (docs/sites.md: 0 public, 1 private; 0 when never set) from its
 * stored settings JSON — read here, as the projects feature stores it, without its secrets.
 */
function defaultPrivacy(settings: string | null): Privacy {
  if (settings === null) return 0;
  return (JSON.parse(settings) as { default_privacy?: unknown }).default_privacy === 1 ? 1 : 0;
}

/** The build's pages with the project's ignore rules applied, as the build stores them. */
function pageData(p: BuildInput['pages'][number], report: AuditReport): Omit<BuildPageData, 'reportId' | 'runNumber'> {
  return {
    url: p.url,
    path: pathOf(p.url)!,
    score: report.score,
    result: report.result,
    checks: Object.fromEntries(
      Object.entries(report.results).map(([id, c]) => [id, { passed: c.passed, title: c.title }]),
    ),
    figures: { score: report.score, ...(p.figures ?? {}) },
    assertions: p.assertions ?? [],
  };
}

export function createBuildServices(ctx: ServiceContext): BuildsServices {
  const { db } = ctx;
  const keep = ctx.config.buildsKeepPerBranch ?? DEFAULT_BUILDS_KEEP_PER_BRANCH;

  /**
   * A URL's result as a run (source `build`) of the project's report of that page: a new run of
   * the newest report of the page when there is one (privacy and password untouched), else a
   * new report with the project's default_privacy. As a crawl stores its pages (audit/store.ts
   * storeCrawledPage): the project's row made and locked before the report is looked up.
   */
  async function storePage(
    trx: Db,
    orgId: number,
    report: AuditReport,
    privacy: Privacy,
    now: string,
  ): Promise<{ reportId: number; runNumber: number }> {
    const claimed = await claimProject(trx, orgId, report.project, now);
    const existing = claimed ? null : await findPageReport(trx, orgId, report.project, pageKeyOf(ctx, report.url));
    const row = existing === null ? null : await findReport(trx, existing, orgId, true);
    const state = row === null ? null : await findRunState(trx, row.id, orgId);
    if (row === null || state === null) {
      const reportId = await storeAudit(trx, ctx, {
        userId: orgId,
        report,
        privacy,
        passwordHash: null,
        now,
        projectClaimed: claimed,
      });
      await markBuildRun(trx, reportId);
      return { reportId, runNumber: 1 };
    }
    const runNumber = await storeRun(trx, ctx, {
      userId: orgId,
      row,
      state,
      audit: auditColumns(report),
      source: 'build',
      batchId: null,
    });
    return { reportId: row.id, runNumber };
  }

  /** The base build: the base branch's build of the ancestor commit, else its newest before this one. */
  async function findBase(trx: Db, b: BuildRow): Promise<BuildRow | null> {
    if (b.baseBranch === null) return null;
    const candidates = await branchBuildsBefore(trx, b.orgId, b.project, b.baseBranch, b.id, ANCESTOR_WINDOW);
    const ancestor = b.ancestorSha;
    return (ancestor !== null ? candidates.find((c) => sameCommit(c.commitSha, ancestor)) : undefined) ?? candidates[0] ?? null;
  }

  async function view(b: BuildRow): Promise<BuildView> {
    const pages = await buildPages(db, b.id);
    const base = b.baseBuildId === null ? null : await findBuild(db, b.orgId, b.baseBuildId);
    const comparison = compareBuild(
      refOf(b),
      pages,
      base === null
        ? null
        : {
            ref: refOf(base),
            matched: b.ancestorSha !== null && sameCommit(base.commitSha, b.ancestorSha) ? 'ancestor' : 'newest',
            pages: await buildPages(db, base.id),
          },
    );
    return { build: b, pages, comparison };
  }

  return {
    async create(actor: Actor, input: BuildInput) {
      requireScope(actor, 'write');
      checkInput(input);
      const project = projectName(input.project.trim());
      if (!seesProject(actor, project))
        throw forbidden(
          `Forbidden: this API key is limited to projects (${(actor.projects ?? []).join(', ')}); ${project} is not one of them.`,
        );
      const now = ctx.now();
      // the project's ignore rules apply to a build's checks as to its other audits
      const reports = await Promise.all(
        input.pages.map((p) => withProjectRules(db, actor.orgId, { ...p.report, project }, now)),
      );
      const build = await withTransaction(db, async (trx) => {
        const privacy = defaultPrivacy((await findProjectSettings(trx, actor.orgId, project))?.settings ?? null);
        const iso = now.toISOString();
        const row = await insertBuild(trx, {
          orgId: actor.orgId,
          project,
          commitSha: input.commitSha.toLowerCase(),
          branch: input.branch.trim(),
          baseBranch: input.baseBranch?.trim() || null,
          ancestorSha: input.ancestorSha?.toLowerCase() || null,
          author: input.author || null,
          message: input.message || null,
          runUrl: input.runUrl || null,
          baseBuildId: null,
          createdAt: iso,
        });
        for (const [i, p] of input.pages.entries()) {
          const report = reports[i]!;
          const stored = await storePage(trx, actor.orgId, report, privacy, iso);
          await insertBuildPage(trx, row.id, { ...pageData(p, report), ...stored });
        }
        const base = await findBase(trx, row);
        if (base !== null) {
          await setBaseBuild(trx, row.id, base.id);
          row.baseBuildId = base.id;
        }
        // retention: a branch no build names as its base keeps its newest `keep` builds
        if (!(await isBaseBranch(trx, actor.orgId, project, row.branch)))
          await pruneBranch(trx, actor.orgId, project, row.branch, keep);
        return row;
      });
      return view(build);
    },

    async get(actor: Actor, id: number) {
      requireScope(actor, 'read');
      const b = await findBuild(db, actor.orgId, id);
      if (b === null || !seesProject(actor, b.project)) throw notFound('No such build.');
      return view(b);
    },

    async list(actor: Actor, name: string, q) {
      requireScope(actor, 'read');
      const project = projectName(name);
      if (!seesProject(actor, project) || (await findProject(db, actor.orgId, project)) === null)
        throw notFound('No such project.');
      return listBuilds(db, actor.orgId, project, {
        ...(q.branch !== undefined ? { branch: q.branch } : {}),
        limit: q.perPage,
        offset: (q.page - 1) * q.perPage,
      });
    },
  };
}
