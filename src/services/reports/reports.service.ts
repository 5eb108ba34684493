// Reports: audit and store, show, list, update (privacy, password, re-audit), delete. The
// history (runs, re-audits, diffs) is history.service.ts.
import { requireReportQuota } from '../shared/quotas.js';
import { recordChange } from '../shared/audit-log.js';
import type { AuditReport } from '../../analyzer/types.js';
import { normalizeUrl } from '../../analyzer/url.js';
import { notFound, validationError } from '../../errors.js';
import { dialectOf, withTransaction } from '../../store/database.js';
import { findProject } from '../../store/projects.repository.js';
import {
  countReports,
  countReportsUpTo,
  listReportIds,
  sampleSearchShare,
  walkReports,
  type WalkCursor,
} from '../../store/reports-list.repository.js';
import type { ReportFilter } from '../../store/reports.repository.js';
import { canFilterRowByRow } from '../../store/sql-helpers.js';
import {
  findReport,
  findReportProject,
  findReportText,
  getPasswordHash,
  summariesByIds,
  summaryTextsByIds,
  updateReportSettings,
} from '../../store/reports.repository.js';
import {
  bumpReportsVersion,
  getReportsState,
  getReportsVersion,
  getReportsVersions,
  getOrgCounters,
} from '../../store/organizations.repository.js';
import { storeAudit, removeReport } from '../audit/store.js';
import { auditPage, isFetchError } from '../audit/audit.js';
import type { ServiceContext } from '../shared/context.js';
import { createReauditor, type HistoryFunctions } from '../history/history.service.js';
import { hashPassword, verifyPassword } from '../shared/secrets.js';
import { AnswerCache, ReportsListCache } from '../shared/list-cache.js';
import { resolveReportsQuery } from '../../contract/lists.js';
import type { ListReportsQuery } from '../../contract/lists.js';
import type { OwnerServices } from '../types.js';
import type { ListAnswer, Privacy, StoredReport, StoredReportText } from './types.js';

const PASSWORD_REQUIRED = 'The password field is required when privacy is 2.';
const reportNotFound = () => notFound('No such report.');
/**
 * A search's matches are counted exactly up to this many; past it (a broad search of every
 * project) the total is an estimate (docs/api.md, "Estimated totals").
 */
export const SEARCH_COUNT_BOUND = 10_000;
/** the newest reports a broad search's share of matches is measured on */
export const SEARCH_SAMPLE = 5_000;
/**
 * How long a kept list answer may trail a running crawl (docs/api.md, "Kept answers"): while
 * the only changes since it was made are a crawl's pages (organizations.crawl_writes), it is
 * answered for this long; any other change makes it be made again at once.
 */
export const CRAWL_TRAIL_MS = 1000;

interface Versions {
  version: number;
  crawlWrites: number;
}
/** A kept list answer, with the version it was made at and when (Date.now()). */
interface KeptList extends Versions {
  answer: ListAnswer;
  at: number;
  bytes: number;
}
/** Every change from `a` to `b` was a crawl's page (none: the same version). */
const onlyCrawled = (a: Versions, b: Versions) => b.version - a.version === b.crawlWrites - a.crawlWrites;
/** `kept` answers for `now`'s versions: the same, or trailing a crawl's pages by less than CRAWL_TRAIL_MS. */
const keptHolds = (kept: KeptList, now: Versions, at: number) =>
  kept.version === now.version || (onlyCrawled(kept, now) && at - kept.at < CRAWL_TRAIL_MS);

/** rows per chunk of a walk (the CSV of a list) */
const WALK_CHUNK = 1_000;

export function createReportServices(ctx: ServiceContext): Omit<OwnerServices['reports'], HistoryFunctions> {
  const { db } = ctx;
  const iso = () => ctx.now().toISOString();
  const cache = new ReportsListCache((userId) => getReportsVersion(db, userId));
  const answers = new AnswerCache<KeptList>();
  const reaudit = createReauditor(ctx);

  /** Fetches and audits; a page that cannot be fetched is a 422 under `url`. */
  async function audit(userId: number, url: string, render: boolean): Promise<AuditReport> {
    try {
      return await auditPage(ctx, url, { render, userId });
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

  async function loadText(userId: number, id: number): Promise<StoredReportText> {
    const report = await findReportText(db, id, userId);
    if (!report) throw reportNotFound();
    return report;
  }

  /**
   * A search's total: exact up to SEARCH_COUNT_BOUND matches; past it, for a search of every
   * project whose term can be checked row by row, estimated from the share of the newest
   * SEARCH_SAMPLE reports it matches (`estimate`: docs/api.md, "Estimated totals").
   */
  async function searchTotal(
    userId: number,
    filter: ReportFilter & { search: string },
    rows: number,
  ): Promise<{ total: number; estimate: boolean }> {
    const exact = async () => ({ total: await countReports(db, userId, filter), estimate: false });
    if (filter.project !== undefined || !canFilterRowByRow(dialectOf(db), filter.search)) return exact();
    const upTo = await countReportsUpTo(db, userId, filter, SEARCH_COUNT_BOUND);
    if (upTo <= SEARCH_COUNT_BOUND) return { total: upTo, estimate: false };
    const { sampled, matched } = await sampleSearchShare(db, userId, filter, SEARCH_SAMPLE);
    // more matches than the bound, and never more than the reports they are among
    const share = sampled > 0 ? Math.round((rows * matched) / sampled) : 0;
    return { total: Math.min(rows, Math.max(SEARCH_COUNT_BOUND + 1, share)), estimate: true };
  }

  /** The total of a list query (`estimate`: an estimated one) and the ids of its page, in order. */
  async function pageOf(
    userId: number,
    q: ListReportsQuery,
  ): Promise<{ ids: number[]; total: number; estimate: boolean }> {
    const { perPage, page, sortBy, sort, ...filter } = resolveReportsQuery(q);
    let total: number;
    let estimate = false;
    // for a search: how many of the user's reports pass the other filters (an upper bound)
    let rows: number | undefined;
    let version: number | undefined;
    if (!filter.search && filter.project === undefined) {
      const counters = await getOrgCounters(db, userId);
      total = filter.result ? counters[filter.result] : counters.reports;
    } else if (!filter.search && filter.result === undefined) {
      total = (await findProject(db, userId, filter.project!))?.reportsCount ?? 0;
    } else {
      // counted once per version of the user's reports (src/services/shared/list-cache.ts)
      const state = await getReportsState(db, userId);
      if (!state) return { ids: [], total: 0, estimate: false };
      rows = filter.result ? state[filter.result] : state.reports;
      version = state.version;
      const key = [filter.search ?? null, filter.project ?? null, filter.result ?? null];
      const search = filter.search;
      const counted = await cache.total(userId, version, key, () =>
        search
          ? searchTotal(userId, { ...filter, search }, rows!)
          : countReports(db, userId, filter).then((n) => ({ total: n, estimate: false })),
      );
      total = counted.total;
      estimate = counted.estimate;
    }
    const offset = (page - 1) * perPage;
    if (offset >= total) return { ids: [], total, estimate };
    const o = { ...filter, sortBy, sort, limit: perPage, offset };
    if (version === undefined) return { ids: await listReportIds(db, userId, o), total, estimate };
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
    return { ids, total, estimate };
  }

  const service: Omit<OwnerServices['reports'], HistoryFunctions> = {
    async sameUrl(userId: number, url: string) {
      const normalized = normalizeUrl(url.trim());
      if (!normalized) return [];
      const found = await service.list(userId, {
        search: normalized,
        sortBy: 'id',
        sort: 'desc',
        perPage: 100,
      });
      return found.items.filter((r) => r.url === normalized);
    },

    async list(userId: number, q: ListReportsQuery) {
      const { ids, total, estimate } = await pageOf(userId, q);
      return { items: await summariesByIds(db, ids), total, ...(estimate ? { totalIsEstimate: true } : {}) };
    },

    async listText(userId: number, q: ListReportsQuery) {
      const { ids, total, estimate } = await pageOf(userId, q);
      return {
        items: await summaryTextsByIds(db, ids),
        total,
        ...(estimate ? { totalIsEstimate: true } : {}),
      };
    },

    async listAnswer(userId, q, answer) {
      // the version first: an answer made at it is exact while it is current (list-cache.ts),
      // and trails a running crawl's pages by at most CRAWL_TRAIL_MS
      const at = Date.now();
      const v = await getReportsVersions(db, userId);
      if (v === null) return answer.render({ items: [], total: 0 });
      const key = JSON.stringify([userId, resolveReportsQuery(q), answer.key]);
      const kept = answers.get(key);
      if (kept !== undefined && keptHolds(kept, v, at)) return kept.answer;
      const made = answer.render(await service.listText(userId, q));
      // moved meanwhile by something else than a crawl's pages: what was read may belong to
      // either version, and is not kept; by a crawl's pages only, it is kept as of before
      const after = await getReportsVersions(db, userId);
      if (after !== null && onlyCrawled(v, after))
        answers.set(key, { answer: made, ...v, at, bytes: made.bytes });
      return made;
    },

    async *walk(userId: number, q: ListReportsQuery, options = {}) {
      const { perPage: _perPage, page: _page, ...o } = resolveReportsQuery(q);
      const chunk = options.chunkSize ?? WALK_CHUNK;
      let after: WalkCursor | null = null;
      do {
        const { rows, next } = await walkReports(db, userId, {
          ...o,
          ...(options.projects ? { projects: options.projects } : {}),
          ...(options.batch !== undefined ? { batch: options.batch } : {}),
          limit: chunk,
          after,
        });
        if (rows.length > 0) yield rows;
        after = next;
      } while (after !== null);
    },

    getOwned: load,
    get: load,
    getOwnedText: loadText,

    async forViewer(id, viewer, grants) {
      const report = await findReport(db, id, null);
      if (!report) return null;
      if (viewer !== null && viewer.orgId === report.userId) return { access: 'owner', report };
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
      await requireReportQuota(db, userId, ctx.now());
      const report = await audit(userId, input.url, input.render === true);
      const passwordHash = privacy === 2 ? await hashPassword(input.password!) : null;
      const now = iso();
      const id = await withTransaction(db, (trx) =>
        storeAudit(trx, ctx, { userId, report, privacy, passwordHash, now }),
      );
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
      const applySettings = async (trx: typeof db) => {
        const hash = passwordHash === undefined ? await getPasswordHash(trx, id) : passwordHash;
        if (privacy === 2 && hash === null) throw validationError({ password: [PASSWORD_REQUIRED] });
        await updateReportSettings(trx, id, { privacy, passwordHash: hash, now: iso() });
        // a list row shows privacy, the password's presence and updated_at: a new version
        await bumpReportsVersion(trx, userId);
      };
      if (input.results) {
        // a new run with the settings in its transaction; a page that cannot be fetched is a
        // failed run in the history, a 422 here, and the report (settings too) stays as it was
        const outcome = await reaudit(
          userId,
          id,
          { source: input.source ?? 'api', render: input.render === true },
          applySettings,
        );
        if (outcome.status === 'failed') throw validationError({ url: [outcome.reason] });
      } else {
        await withTransaction(db, async (trx) => {
          const row = await findReport(trx, id, userId, true);
          if (!row) throw reportNotFound();
          await applySettings(trx);
        });
      }
      return load(userId, id);
    },

    async delete(userId, id) {
      const project = await findReportProject(db, id, userId);
      if (project === null) throw reportNotFound();
      await withTransaction(db, async (trx) => {
        if (!(await removeReport(trx, userId, id, project))) throw reportNotFound();
        await recordChange(trx, ctx.now(), userId, {
          action: 'report.deleted',
          target: { type: 'report', id },
          changes: { project },
        });
      });
    },

    async verifyPassword(id, password) {
      const hash = await getPasswordHash(db, id);
      if (hash === null || typeof password !== 'string' || password.length > 1024) return false;
      return verifyPassword(password, hash);
    },
  };
  return service;
}
