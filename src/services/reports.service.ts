// Reports: audit and store, show, list, update (privacy, password, re-audit), delete, history.
import { FetchError } from '../analyzer/types.js';
import type { AuditReport } from '../analyzer/types.js';
import { AppError, notFound, validationError } from '../errors.js';
import { withTransaction } from '../store/database.js';
import {
  addReportToProject,
  findProject,
  lockProject,
  removeReportFromProject,
} from '../store/projects.repository.js';
import {
  countReports,
  deleteReport,
  findReport,
  findReportProject,
  getPasswordHash,
  insertReport,
  insertRun,
  listReportIds,
  listReports,
  listRuns,
  pruneRuns,
  summariesByIds,
  updateReportAudit,
  updateReportSettings,
  type AuditColumns,
} from '../store/reports.repository.js';
import {
  adjustUserCounters,
  bumpReportsVersion,
  getReportsState,
  getReportsVersion,
  getUserCounters,
} from '../store/users.repository.js';
import type { ServiceContext } from './context.js';
import { hashPassword, verifyPassword } from './secrets.js';
import { ReportsListCache } from './list-cache.js';
import { resolveReportsQuery } from './list-query.js';
import type { ListReportsQuery, Privacy, Services, StoredReport } from './types.js';

/** earlier runs kept per report (the oldest go first) */
export const HISTORY_LIMIT = 50;

const PASSWORD_REQUIRED = 'The password field is required when privacy is 2.';
const reportNotFound = () => notFound('No such report.');

function auditColumns(a: AuditReport): AuditColumns {
  return {
    finalUrl: a.final_url,
    result: a.result,
    score: a.score,
    generatedAt: new Date(a.generated_at).toISOString(),
    categories: a.categories,
    results: a.results,
    page: a.page,
  };
}

function isFetchError(err: unknown): err is Error {
  return err instanceof FetchError || (err instanceof Error && err.name === 'FetchError');
}

export function createReportServices(ctx: ServiceContext): Services['reports'] {
  const { db, config } = ctx;
  // webhook events (report.created, .completed, .regressed, .failed), in the change's transaction
  const events = ctx.reportEvents ?? null;
  const iso = () => ctx.now().toISOString();
  const cache = new ReportsListCache((userId) => getReportsVersion(db, userId));

  /** Fetches and audits; a page that cannot be fetched is a 422 under `url`. */
  async function audit(url: string): Promise<AuditReport> {
    try {
      return await ctx.analyze(url, {
        allowPrivateHosts: config.allowPrivateHosts,
        timeoutMs: config.fetchTimeoutMs,
        maxBytes: config.fetchMaxBytes,
        ...(config.userAgent !== null ? { userAgent: config.userAgent } : {}),
      });
    } catch (err) {
      if (isFetchError(err)) throw validationError({ url: [err.message] });
      throw err;
    }
  }

  async function load(userId: number, id: number): Promise<StoredReport> {
    const report = await findReport(db, id, userId);
    if (!report) throw reportNotFound();
    return report;
  }

  return {
    async list(userId: number, q: ListReportsQuery) {
      const { perPage, page, sortBy, sort, ...filter } = resolveReportsQuery(q);
      let total: number;
      // for a search: how many of the user's reports pass the other filters (an upper bound)
      let rows: number | undefined;
      let version: number | undefined;
      if (!filter.search && filter.project === undefined) {
        const counters = await getUserCounters(db, userId);
        total = filter.result ? counters[filter.result] : counters.reports;
      } else if (!filter.search && filter.result === undefined) {
        total = (await findProject(db, userId, filter.project!))?.reportsCount ?? 0;
      } else {
        // counted once per version of the user's reports (src/services/list-cache.ts)
        const state = await getReportsState(db, userId);
        if (!state) return { items: [], total: 0 };
        rows = filter.result ? state[filter.result] : state.reports;
        version = state.version;
        const key = [filter.search ?? null, filter.project ?? null, filter.result ?? null];
        total = await cache.total(userId, version, key, () => countReports(db, userId, filter));
      }
      const offset = (page - 1) * perPage;
      if (offset >= total) return { items: [], total };
      const o = { ...filter, sortBy, sort, limit: perPage, offset };
      if (version === undefined) return { items: await listReports(db, userId, o), total };
      // The ids of a page are exact for a version too: membership and order depend on url,
      // project, result, generated_at and id, and every change of them changes the version
      // (a re-audit does, even when the result stays). The rows are read fresh by id.
      const pageKey = [
        filter.search ?? null,
        filter.project ?? null,
        filter.result ?? null,
        sortBy,
        sort,
        perPage,
        page,
      ];
      const matches = total;
      const ids = await cache.pageIds(userId, version, pageKey, () =>
        listReportIds(db, userId, o, filter.search && rows !== undefined ? { matches, rows } : undefined),
      );
      return { items: await summariesByIds(db, ids), total };
    },

    getOwned: load,
    get: load,

    async forViewer(id, viewer, grants) {
      const report = await findReport(db, id, null);
      if (!report) return null;
      if (viewer !== null && viewer.userId === report.userId) return { access: 'owner', report };
      switch (report.privacy) {
        case 0:
          return { access: 'public', report };
        case 1:
          // another user's private report: the same answer as a missing one
          return null;
        case 2:
          return grants?.(id, report.updatedAt)
            ? { access: 'unlocked', report }
            : { access: 'locked', report: { id: report.id, updatedAt: report.updatedAt } };
      }
    },

    async create(userId, input) {
      const privacy: Privacy = input.privacy ?? 0;
      if (privacy === 2 && !input.password) throw validationError({ password: [PASSWORD_REQUIRED] });
      const report = await audit(input.url);
      const passwordHash = privacy === 2 ? await hashPassword(input.password!) : null;
      const now = iso();
      const id = await withTransaction(db, async (trx) => {
        const projectCreated = await addReportToProject(trx, userId, report.project, now);
        const id = await insertReport(trx, {
          ...auditColumns(report),
          userId,
          url: report.url,
          project: report.project,
          privacy,
          passwordHash,
          now,
        });
        await adjustUserCounters(trx, userId, {
          projects: projectCreated ? 1 : 0,
          reports: 1,
          [report.result]: 1,
        });
        if (events) await events.created(trx, userId, id);
        return id;
      });
      return load(userId, id);
    },

    async update(userId, id, input) {
      const current = await load(userId, id);
      const privacy: Privacy = input.privacy ?? current.privacy;
      // undefined: keep the stored password
      let passwordHash: string | null | undefined;
      if (privacy !== 2) passwordHash = null;
      else if (input.password) passwordHash = await hashPassword(input.password);
      else if (!current.hasPassword) throw validationError({ password: [PASSWORD_REQUIRED] });
      // the re-audit happens before the transaction: a failure leaves the report as it was
      let fresh: AuditReport | null = null;
      try {
        fresh = input.results ? await audit(current.url) : null;
      } catch (err) {
        const reason = err instanceof AppError ? err.fields?.url?.[0] : undefined;
        if (events && reason !== undefined) await events.failed(undefined, current, reason);
        throw err;
      }
      await withTransaction(db, async (trx) => {
        const row = await findReport(trx, id, userId, true);
        if (!row) throw reportNotFound();
        const hash = passwordHash === undefined ? await getPasswordHash(trx, id) : passwordHash;
        if (privacy === 2 && hash === null) throw validationError({ password: [PASSWORD_REQUIRED] });
        if (fresh) {
          await insertRun(trx, id, row);
          await pruneRuns(trx, id, HISTORY_LIMIT);
          const next = auditColumns(fresh);
          await updateReportAudit(trx, id, next);
          if (next.result !== row.result) {
            await adjustUserCounters(trx, userId, { [row.result]: -1, [next.result]: 1 });
          } else {
            // generated_at moved (the order of sort_by=generated_at): a new version all the same
            await bumpReportsVersion(trx, userId);
          }
        }
        await updateReportSettings(trx, id, { privacy, passwordHash: hash, now: iso() });
        if (fresh && events) {
          // the regression rule and the diff come with the history work (isRegression(diff))
          await events.completed(trx, userId, id, null);
        }
      });
      return load(userId, id);
    },

    async delete(userId, id) {
      const project = await findReportProject(db, id, userId);
      if (project === null) throw reportNotFound();
      await withTransaction(db, async (trx) => {
        // lock order project → report → user, as deleting a project does
        await lockProject(trx, userId, project);
        const gone = await deleteReport(trx, id, userId);
        if (!gone) throw reportNotFound();
        const projectDeleted = await removeReportFromProject(trx, userId, gone.project);
        await adjustUserCounters(trx, userId, {
          projects: projectDeleted ? -1 : 0,
          reports: -1,
          [gone.result]: -1,
        });
      });
    },

    async history(userId, id) {
      await load(userId, id);
      return listRuns(db, id);
    },

    async verifyPassword(id, password) {
      const hash = await getPasswordHash(db, id);
      if (hash === null || typeof password !== 'string' || password.length > 1024) return false;
      return verifyPassword(password, hash);
    },
  };
}
