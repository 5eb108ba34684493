// A project as a site (docs/sites.md, "Projects as sites"): its page (latest crawl, site
// score), its settings (PUT creates the project before its first report, PATCH changes some),
// and "crawl now" (a batch with its settings, through the batches feature's face).
import { requireScheduleQuota } from '../shared/quotas.js';
import { diffFields, recordChange } from '../shared/audit-log.js';
import { bandOf } from '../../analyzer/scoring.js';
import { projectName } from '../../analyzer/url.js';
import { notFound, validationError } from '../../errors.js';
import { withTransaction } from '../../store/database.js';
import {
  batchMeanScore,
  projectCrawls,
  findProjectSettings,
  lockProject,
  projectTimeline,
  saveProjectSettings,
  type ProjectCrawlPoint,
  type ProjectSettingsRow,
} from '../../store/projects.repository.js';
import type { BatchSummary } from '../../crawl/findings/index.js';
import { adjustOrgCounters } from '../../store/organizations.repository.js';
import type { ServiceContext } from '../shared/context.js';
import type { BatchServices } from '../batches/types.js';
import { syncProjectSchedule } from '../schedules/schedules.service.js';
import type {
  ChangeAuthor,
  ProjectDetail,
  ProjectsServices,
  ProjectSettingsBody,
  ProjectTrendPoint,
} from './types.js';
import { DASHBOARD, logRuleChange } from './ignore-rules.js';
import {
  applySettings,
  decodeSettings,
  DEFAULT_SETTINGS,
  encodeSettings,
  presentSettings,
  type SettingsContext,
} from './settings.js';

/** A name given in a path → the project's name; 422 when it is no host name (PUT creates it). */
function hostName(name: string): string {
  const project = projectName(name.trim());
  let ok = false;
  try {
    ok = project !== '' && new URL(`http://${project}/`).hostname === project;
  } catch {
    ok = false;
  }
  if (!ok) throw validationError({ project: [`The project must be a host name such as example.com.`] });
  return project;
}

/**
 * How many finished crawls the project's trend holds (the API's `trend`, the project page's
 * charts): the newest, read by the (org_id, project, id) index from their stored summaries.
 */
const TREND_CRAWLS = 30;

/** A finished crawl's stored summary as a point of the trend (nothing computed again). */
function trendPoint(c: ProjectCrawlPoint): ProjectTrendPoint {
  const s = JSON.parse(c.summary) as BatchSummary;
  const siteScore = s.averageScore === null ? null : Math.round(s.averageScore);
  return {
    batchId: c.id,
    finishedAt: c.finishedAt,
    siteScore,
    band: siteScore === null ? null : bandOf(siteScore),
    audited: s.pages.audited,
    bands: { good: s.bands.good, decent: s.bands.decent, bad: s.bands.bad },
    findings: s.findings.map((f) => ({ id: f.id, title: f.title, count: f.count })),
  };
}

type SiteServices = Pick<ProjectsServices, 'get' | 'put' | 'patch' | 'crawl'>;

export function createProjectSiteServices(ctx: ServiceContext, batches: BatchServices): SiteServices {
  const { db } = ctx;
  const secretKey = ctx.config.secretKey ?? null;
  const settingsCtx = (project: string): SettingsContext => ({
    project,
    maxPagesLimit: ctx.config.batchMaxPages ?? 10_000,
    secretKey,
  });

  async function owned(userId: number, name: string): Promise<ProjectSettingsRow> {
    const row = await findProjectSettings(db, userId, projectName(name));
    if (!row) throw notFound('No such project.');
    return row;
  }

  async function detail(userId: number, row: ProjectSettingsRow): Promise<ProjectDetail> {
    const { latest, done } = await projectCrawls(db, userId, row.name);
    const latestCrawl = latest === null ? null : await batches.get(userId, latest);
    const mean = done === null ? null : (await batchMeanScore(db, done)).mean;
    const siteScore = mean === null ? null : Math.round(mean);
    const crawls = await projectTimeline(db, userId, row.name, TREND_CRAWLS);
    return {
      project: { project: row.name, createdAt: row.createdAt, reportsCount: row.reportsCount },
      latestCrawl,
      siteScore,
      band: siteScore === null ? null : bandOf(siteScore),
      settings: presentSettings(decodeSettings(secretKey, row, false).settings),
      trend: crawls.reverse().map(trendPoint),
    };
  }

  const sameRules = (a: { rule_id: string }[], b: { rule_id: string }[]) =>
    a.length === b.length && a.every((r, i) => r.rule_id === b[i]!.rule_id);

  const touchesSecrets = (b: ProjectSettingsBody) =>
    b.headers !== undefined || b.cookies !== undefined || b.basic_auth !== undefined;

  /**
   * Applies a body to the project's settings in one transaction (PUT: over the defaults), the
   * row read under its lock (PostgreSQL; SQLite's transaction holds the write lock): two
   * concurrent PATCHes of different fields both count. Returns true when the project was created.
   */
  async function save(
    userId: number,
    project: string,
    body: ProjectSettingsBody,
    replace: boolean,
    by: ChangeAuthor,
  ): Promise<boolean> {
    return withTransaction(db, async (trx) => {
      await lockProject(trx, userId, project);
      const row = await findProjectSettings(trx, userId, project);
      if (!replace && row === null) throw notFound('No such project.');
      const base =
        replace || row === null
          ? { settings: { ...DEFAULT_SETTINGS }, secrets: { headers: {}, cookies: {}, password: null } }
          : decodeSettings(secretKey, row, touchesSecrets(body));
      const next = applySettings(settingsCtx(project), base, body);
      const encoded = encodeSettings(secretKey, next);
      // a PATCH that leaves the secrets alone keeps their ciphertext as it is
      const secrets = !replace && row !== null && !touchesSecrets(body) ? row.secrets : encoded.secrets;
      const created = await saveProjectSettings(trx, userId, project, {
        settings: encoded.settings,
        secrets,
        now: ctx.now().toISOString(),
      });
      if (created) await adjustOrgCounters(trx, userId, { projects: 1 });
      const hadSchedule = row !== null && decodeSettings(secretKey, row, false).settings.schedule !== null;
      if (next.settings.schedule !== null && !hadSchedule) await requireScheduleQuota(trx, userId);
      // the audit log: what changed in the clear settings (secrets: only set or cleared)
      const was = row === null ? DEFAULT_SETTINGS : decodeSettings(secretKey, row, false).settings;
      const changes: Record<string, unknown> = diffFields({ ...was }, { ...next.settings }, ['ignore']);
      if (!sameRules(was.ignore, next.settings.ignore))
        changes.ignore_rules = { from: was.ignore.length, to: next.settings.ignore.length };
      for (const secret of ['headers', 'cookies', 'basic_auth'] as const)
        if (body[secret] !== undefined) changes[`${secret}_values`] = body[secret];
      if (created || Object.keys(changes).length > 0)
        await recordChange(trx, ctx.now(), userId, {
          action: created ? 'project.created' : 'project.settings_changed',
          target: { type: 'project', id: project },
          changes,
        });
      // its schedule row follows its `schedule` setting, in this transaction (docs/sites.md "Scheduled crawls")
      await syncProjectSchedule(trx, ctx.now(), { userId, project, schedule: next.settings.schedule });
      // a change of the ignore rules is logged with who made it (./ignore-rules.ts)
      const before = replace || row === null ? [] : base.settings.ignore;
      if (!sameRules(before, next.settings.ignore))
        await logRuleChange(
          trx,
          userId,
          project,
          { action: 'replace', ruleId: null, rules: next.settings.ignore },
          by,
          ctx.now().toISOString(),
        );
      return created;
    });
  }

  return {
    async get(userId, name) {
      return detail(userId, await owned(userId, name));
    },

    async put(userId, name, body, by = DASHBOARD) {
      const project = hostName(name);
      const created = await save(userId, project, body, true, by);
      return { detail: await detail(userId, (await findProjectSettings(db, userId, project))!), created };
    },

    async patch(userId, name, body, by = DASHBOARD) {
      const project = projectName(name);
      await save(userId, project, body, false, by);
      return detail(userId, await owned(userId, project));
    },

    async crawl(userId, name) {
      const row = await owned(userId, name);
      const { settings: s } = decodeSettings(secretKey, row, false);
      if (s.start_url === null)
        throw validationError({
          start_url: [
            `The project has no start_url: set one with PATCH /api/v1/projects/${row.name} (e.g. {"start_url": "https://${row.name}/"}).`,
          ],
        });
      return batches.create(userId, {
        url: s.start_url,
        mode: s.mode,
        ...(s.mode === 'list' ? { urls: s.urls } : {}),
        maxPages: s.max_pages,
        maxDepth: s.max_depth,
        include: s.include,
        exclude: s.exclude,
        privacy: s.default_privacy,
        render: s.render === 1,
        ...(s.extractors.length > 0 ? { extractors: s.extractors } : {}),
        checkExternal: s.check_external === 1,
        maxExternalChecks: s.max_external_checks,
        maxSiteChecks: s.max_site_checks,
        thinContentWords: s.thin_content_words,
        nearDuplicateThreshold: s.near_duplicate_threshold,
        deepPageDepth: s.deep_page_depth,
      });
    },
  };
}
