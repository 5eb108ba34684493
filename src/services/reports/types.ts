// The reports feature's types: a report as listed and stored, who may see it, and the
// operations of the reports service (the history operations it offers — reaudit, runs, diff —
// are implemented by the history feature, src/services/history).
// Dates are ISO 8601 strings in UTC with milliseconds (`2026-11-21T20:50:25.123Z`), exactly
// what the API returns; presenters copy them as they are.
import type { ReportExportRow } from '../../store/reports-list.repository.js';
import type { ReportSummaryText, ReportText } from '../../store/reports.repository.js';
import type { ListReportsQuery, Page } from '../../contract/lists.js';
import type { RunSource } from '../../store/runs.repository.js';

// a report as listed is the store's row (one declaration), and so is its privacy
export type { Privacy, ReportSummaryRow as ReportSummary } from '../../store/reports.repository.js';
import type { Privacy, ReportSummaryRow as ReportSummary } from '../../store/reports.repository.js';

/** A report as the CSV of a list has it (id, url, project, result, score, issues by priority, dates). */
export type { ReportExportRow };

/**
 * A summary whose categories are the stored JSON text (`categoriesJson`): what the API's list
 * writes into its answer without parsing it (src/http/presenters/report.ts).
 */
export type { ReportSummaryText };

/** A list's finished answer as its caller made it: its bytes and their tag (an HTTP ETag). */
export type { ListAnswer } from '../shared/list-cache.js';
import type { ListAnswer } from '../shared/list-cache.js';
/** A report whose JSON columns are the stored text (`categoriesJson`, `resultsJson`, `pageJson`, `renderJson`). */
export type StoredReportText = ReportText;

export interface ReportWalkOptions {
  /** only this batch's reports, by id ascending (the other filters and sorts do not apply) */
  batch?: number;
  /** only these projects (set by the access rules for a key limited to projects) */
  projects?: readonly string[];
  /** rows per chunk (default 1,000) */
  chunkSize?: number;
}

/** A report as shown, stored and updated: the summary plus every check and the page facts (the store's row). */
export type { ReportRow as StoredReport } from '../../store/reports.repository.js';
import type { ReportRow as StoredReport } from '../../store/reports.repository.js';

/** Who is looking at a report page (the signed-in user). */
export interface ReportViewer {
  /** the signed-in viewer's organisation: its reports are theirs */
  orgId: number;
}

/** The password passes a browser holds: true when it may open report `id` as last changed at `updatedAt`. */
export type ReportGrants = (id: number, updatedAt: string) => boolean;

/**
 * What a viewer may see of a report: `owner` (everything, and the owner's controls), `public`
 * (a public report), `unlocked` (a password report this browser has the pass for), or `locked`
 * (a password report: only its id and the date its pass is bound to, for the password form).
 */
export type ReportForViewer =
  | { access: 'owner' | 'public' | 'unlocked'; report: StoredReport }
  | { access: 'locked'; report: Pick<StoredReport, 'id' | 'updatedAt'> };

export interface CreateReportInput {
  /** as sent (http/https, ≤ 2048 chars — validated by the schema); normalised by the engine */
  url: string;
  /** default 0 */
  privacy?: Privacy;
  /** required when privacy is 2 (422 under `password`); ignored for privacy 0 and 1 */
  password?: string | null;
  /** audit the page rendered by Chromium too (docs/rendering.md); 422 under `render` without Chromium */
  render?: boolean;
}

export interface UpdateReportInput {
  privacy?: Privacy;
  /** ignored unless the resulting privacy is 2; a new password replaces the old one */
  password?: string | null;
  /** true re-audits the URL (the previous run goes to the history) */
  results?: boolean;
  /** what asked for the re-audit (recorded with the run); default `api` */
  source?: RunSource;
  /** with `results`: the re-audit is a rendered one (docs/rendering.md) */
  render?: boolean;
}
/** The reports service (owner level: a user id; src/services/access/rules.ts applies a key). */
export interface ReportsServices {
  list(userId: number, query: ListReportsQuery): Promise<Page<ReportSummary>>;
  /**
   * Every report the list query matches (all pages; `perPage`/`page` are ignored), in the
   * list's order, as chunks of at most `chunkSize` (default 1,000) rows read by a keyset
   * walk: what the CSV of a list streams (docs/api.md#csv). Nothing is read before the
   * first chunk is asked for, and one chunk at a time after that.
   */
  walk(
    userId: number,
    query: ListReportsQuery,
    options?: ReportWalkOptions,
  ): AsyncIterable<ReportExportRow[]>;
  /** the user's reports of this URL (as stored: normalised), newest first, at most 100 */
  sameUrl(userId: number, url: string): Promise<ReportSummary[]>;
  /**
   * `list` with each summary's categories as the stored JSON text: the API's answer splices
   * it in unparsed (the pages, webhooks and the CLI use `list`)
   */
  listText(userId: number, query: ListReportsQuery): Promise<Page<ReportSummaryText>>;
  /**
   * The finished answer of a `listText` page, `answer.render`ed (with its size in bytes) — kept
   * per process while the version of the user's reports is current
   * (src/services/shared/list-cache.ts, AnswerCache), so a repeated list reads one row.
   * `answer.key` names what else the answer is made from (the links' query string) and is
   * unique to one `render`.
   */
  listAnswer(
    userId: number,
    query: ListReportsQuery,
    answer: { key: string; render(page: Page<ReportSummaryText>): ListAnswer },
  ): Promise<ListAnswer>;
  /** the user's own report; 404 when missing or another user's (the API's rule) */
  getOwned(userId: number, id: number): Promise<StoredReport>;
  /** `getOwned` with the JSON columns as the stored text (GET /api/v1/reports/{id} splices them) */
  getOwnedText(userId: number, id: number): Promise<StoredReportText>;
  /** @deprecated the old name of getOwned (kept while other branches merge); use getOwned */
  get(userId: number, id: number): Promise<StoredReport>;
  /**
   * The report page's rule (SPEC §3, docs/pages.md): what `viewer` (null: not signed in) may
   * see of report `id`, given the password passes the browser holds. null: nothing — a
   * missing report and another user's private one are the same answer.
   */
  forViewer(id: number, viewer: ReportViewer | null, grants?: ReportGrants): Promise<ReportForViewer | null>;
  /** fetches and audits, then stores; 422 `url` when the page cannot be fetched (nothing stored) */
  create(userId: number, input: CreateReportInput): Promise<StoredReport>;
  /** privacy/password rules of SPEC §3; `results: true` re-audits (422 `url` leaves it unchanged) */
  update(userId: number, id: number, input: UpdateReportInput): Promise<StoredReport>;
  /** 404 when missing or another user's */
  delete(userId: number, id: number): Promise<void>;
  /** true when the report exists, has a password and `password` matches it */
  verifyPassword(id: number, password: string): Promise<boolean>;
}
