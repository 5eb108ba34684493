// The domain types and the service interface that the HTTP layer, the pages and the CLI call.
// Services hold the business rules and open the transactions; the repositories under
// src/store hold every SQL statement. Services throw AppError (src/errors.ts):
//   404 not_found           — no such report/project for this user (another user's id too)
//   422 validation_failed   — business rules: `url` (page could not be fetched: the FetchError's
//                             message), `password` (privacy 2 without a password)
// Shapes and enums (url length, privacy 0|1|2, per_page 10|25|50|100 …) are validated by the
// HTTP schemas before a service is called.
//
// Dates are ISO 8601 strings in UTC with milliseconds (`2026-11-21T20:50:25.123Z`), exactly
// what the API returns; presenters copy them as they are.
import type { Db } from '../store/database.js';
import type { ReportExportRow, ReportSummaryText, ReportText } from '../store/reports.repository.js';
import type {
  AnalyzeOptions,
  AuditReport,
  Category,
  CategoryScore,
  CheckResult,
  PageInfo,
  ResultBand,
} from '../analyzer/types.js';
import type { RenderInfo } from '../analyzer/rendered.js';
import type { RunDiff } from './diff.js';
import type { BatchServices } from './batches.service.js';

export type Privacy = 0 | 1 | 2;

/** A report as listed (no results/page). */
export interface ReportSummary {
  id: number;
  userId: number;
  /** normalised URL as audited (scheme and host lower-cased, fragment dropped) */
  url: string;
  finalUrl: string;
  project: string;
  result: ResultBand;
  score: number;
  privacy: Privacy;
  hasPassword: boolean;
  /** when the results were last generated */
  generatedAt: string;
  createdAt: string;
  updatedAt: string;
  categories: Record<Category, CategoryScore>;
}

/** A report as the CSV of a list has it (id, url, project, result, score, issues by priority, dates). */
export type { ReportExportRow };

/**
 * A summary whose categories are the stored JSON text (`categoriesJson`): what the API's list
 * writes into its answer without parsing it (src/http/presenters/report.ts).
 */
export type { ReportSummaryText };
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

/** A report as shown, stored and updated: the summary plus every check and the page facts. */
export interface StoredReport extends ReportSummary {
  results: Record<string, CheckResult>;
  page: PageInfo;
  /** a rendered audit's render object (docs/rendering.md); null for raw audits */
  render?: RenderInfo | null;
}

// --- History (docs/history.md) ---------------------------------------------------------

/** What started a run: the API's `results=1`, the dashboard's re-run, a schedule. */
export const RUN_SOURCES = ['api', 'dashboard', 'schedule'] as const;
export type RunSource = (typeof RUN_SOURCES)[number];
/** A run completed (it has results) or failed (the page could not be fetched: a reason, no results). */
export const RUN_STATUSES = ['completed', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * One run of a report, as listed. Runs are numbered per report (1 is the first audit); the
 * current run is the report's own results, and a run keeps its number when a later one
 * replaces it.
 */
export interface RunSummary {
  reportId: number;
  number: number;
  status: RunStatus;
  /** the report's current results are this run's */
  current: boolean;
  /** null when not recorded: a report's first audit, runs kept before runs were numbered */
  source: RunSource | null;
  /** when the audit was made (a failed run: when it was tried) */
  generatedAt: string;
  /** null for a failed run, as are result, score and categories */
  finalUrl: string | null;
  result: ResultBand | null;
  score: number | null;
  categories: Record<Category, CategoryScore> | null;
  /** why a failed run failed (the fetcher's message); null when completed */
  error: string | null;
}

/** A run in full: its checks and page facts too (null for a failed run). */
export interface Run extends RunSummary {
  results: Record<string, CheckResult> | null;
  page: PageInfo | null;
}

/** What a re-audit did: a new current run with what changed, or a failed run with its reason. */
export type ReauditOutcome =
  | { status: 'completed'; report: StoredReport; run: RunSummary; diff: ReportDiff }
  | { status: 'failed'; run: RunSummary; reason: string };

/** Two runs of a report compared (src/services/diff.ts). */
export interface ReportDiff {
  reportId: number;
  from: RunSummary;
  to: RunSummary;
  diff: RunDiff;
  /** isRegression(diff): the band dropped, or a high-priority check newly failed */
  regression: boolean;
}

/** A report's trend on the dashboard. */
export interface ReportTrend {
  score: number;
  /** the score of the run before the current one; null for a report audited once */
  previousScore: number | null;
  /** the newest re-audit could not fetch the page (the current results are older) */
  lastRunFailed: boolean;
}

/** What the report page shows of the history. */
export interface ReportHistory {
  /** the newest runs (at most 100), newest first */
  runs: RunSummary[];
  /** every run kept */
  total: number;
  /** "changed since the last run": the previous completed run → the current one; null for a first run */
  changes: ReportDiff | null;
  /** the newest run when it failed after the current one */
  lastFailed: RunSummary | null;
}

// The list queries (and PerPage, SortDirection) are defined with their schemas, in one place.
export type { ListProjectsQuery, ListReportsQuery, ListRunsQuery } from './list-query.js';
import type { ListProjectsQuery, ListReportsQuery, ListRunsQuery } from './list-query.js';

export interface ProjectSummary {
  project: string;
  /** when its first (current) report was stored */
  createdAt: string;
  reportsCount: number;
}

/** What a project's reports say (the dashboard's project rows). */
export interface ProjectStats {
  reports: number;
  averageScore: number;
  worstScore: number;
  /** reports by result band */
  bands: Record<'good' | 'decent' | 'bad', number>;
  lastAuditAt: string;
}

export interface Page<T> {
  items: T[];
  /** every match, across pages */
  total: number;
}

/** Who is looking at a report page (the signed-in user). */
export interface ReportViewer {
  userId: number;
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

export interface User {
  id: number;
  name: string;
  createdAt: string;
}

export interface ApiKeyInfo {
  id: number;
  userId: number;
  userName: string;
  /** the key's first characters, e.g. `pg_Ab3dE9` — enough to recognise it, never the secret */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** `['read']` (GET only) or `['read', 'write']` (everything) */
  scopes: KeyScope[];
  /** the projects it is limited to; null: every project of its user */
  projects: string[] | null;
  /** after this it answers 401; null: never expires */
  expiresAt: string | null;
}

/** What a key may do: `read` (GET only) or `write` (everything; a write key reads too). */
export const KEY_SCOPES = ['read', 'write'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** Options of a new key (keys.create); the defaults: write, every project, no expiry. */
export interface KeyOptions {
  scope?: KeyScope | undefined;
  /** project names as a user gives them (normalised like every project name) */
  projects?: string[] | null | undefined;
  /** ISO date-time; null or absent: never */
  expiresAt?: string | null | undefined;
}

/**
 * Who acts on a user's data and what they may do: the auth plugin builds one from the API key
 * and hands it to the services, which apply the rules (src/services/access.ts). A plain user
 * id (the pages, the CLI) is the user with every scope on every project.
 */
export interface Actor {
  userId: number;
  scopes: readonly KeyScope[];
  /** null: every project; otherwise only these (others answer 404, as another user's data) */
  projects: readonly string[] | null;
}

/** An actor, or a user id (all scopes, all projects). */
export type Principal = number | Actor;

/** A freshly issued key: `key` is the secret, shown once and never again. */
export interface IssuedKey {
  info: ApiKeyInfo;
  key: string;
}

/** Who a valid API key belongs to, and what the key may do. */
export interface AuthContext extends Actor {
  keyId: number;
}

/** GET /api/v1/account: the key's user (counts as far as the key sees) and the key. */
export interface Account {
  id: number;
  name: string;
  createdAt: string;
  reportsCount: number;
  projectsCount: number;
  key: ApiKeyInfo;
}

/** The engine's entry point, injected (tests pass the real one). */
export type AnalyzeFn = (url: string, options: AnalyzeOptions) => Promise<AuditReport>;

/** What the services need from the configuration (a Config satisfies it). */
export interface ServicesConfig {
  readonly allowPrivateHosts: boolean;
  readonly fetchTimeoutMs: number;
  readonly fetchMaxBytes: number;
  /** null = the engine's default user agent */
  readonly userAgent: string | null;
  /** null = generated once and kept in the settings table */
  readonly sessionSecret: string | null;
  readonly bootstrapKey: string | null;
  /** how long an API key is kept in memory once seen (PAGEGRADE_KEY_CACHE_MS; 0 = not); default 10 s */
  readonly keyCacheMs?: number;
  /** runs kept per report, the current one included (PAGEGRADE_HISTORY_LIMIT); default 100 */
  readonly historyLimit?: number;
  /** base of the links in webhook payloads (PAGEGRADE_PUBLIC_URL); default http://127.0.0.1:8080 */
  readonly publicUrl?: string;
  /** one delivery attempt's time limit (PAGEGRADE_WEBHOOK_TIMEOUT_MS); default 10 000 */
  readonly webhookTimeoutMs?: number;
  /** deliveries failed for good in a row before a webhook is disabled (PAGEGRADE_WEBHOOK_DISABLE_AFTER); default 5 */
  readonly webhookDisableAfter?: number;
  /** whole sites (docs/sites.md): PAGEGRADE_BATCH_MAX_PAGES, default 10 000 */
  readonly batchMaxPages?: number;
  /** PAGEGRADE_BATCH_TIME_BUDGET_MS, default 1 h */
  readonly batchTimeBudgetMs?: number;
  /** PAGEGRADE_CRAWL_DELAY_MS, default 250 */
  readonly crawlDelayMs?: number;
  /** PAGEGRADE_CRAWL_CONCURRENCY, default 2 */
  readonly crawlConcurrency?: number;
  /** PAGEGRADE_CRAWL_TRACKING_PARAMS */
  readonly crawlTrackingParams?: readonly string[];
}

// ── Webhooks ──────────────────────────────────────────────────────────────────────────
export type { WebhookEvent } from './webhook-events.js';
import type { WebhookEvent } from './webhook-events.js';
import type { BrandingServices } from './branding.service.js';
import type { PdfServices } from './pdf.service.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Webhook {
  id: number;
  userId: number;
  url: string;
  events: WebhookEvent[];
  description: string;
  /** false once disabled (by its owner, or after too many failed deliveries in a row) */
  enabled: boolean;
  disabledAt: string | null;
  /** why it was disabled, e.g. "Disabled after 5 deliveries in a row failed; the last: …" */
  disabledReason: string | null;
  /** deliveries failed for good since the last one that arrived */
  consecutiveFailures: number;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookDelivery {
  id: number;
  webhookId: number;
  /** an event name, or `webhook.test` for a test ping */
  event: string;
  /** the `webhook-id` header: the same on every attempt and every redelivery of one event */
  messageId: string;
  /** pending (not sent yet, or waiting for a retry), delivered (a 2xx answer), failed (for good) */
  status: DeliveryStatus;
  attempts: number;
  /** the last attempt's HTTP status (null: no answer) */
  responseStatus: number | null;
  /** the last attempt's duration */
  durationMs: number | null;
  /** why the last attempt failed */
  error: string | null;
  /** the delivery this one sends again (POST …/redeliver) */
  redeliveryOf: number | null;
  createdAt: string;
  updatedAt: string;
  lastAttemptAt: string | null;
  deliveredAt: string | null;
}

export interface CreateWebhookInput {
  /** http(s), ≤ 2048 characters (schema); refused when it resolves to a private address */
  url: string;
  /** at least one, each one of WEBHOOK_EVENTS (schema); duplicates are dropped */
  events: WebhookEvent[];
  description?: string;
}

export interface UpdateWebhookInput {
  url?: string;
  events?: WebhookEvent[];
  description?: string;
  /** true re-enables (and clears the failure count); false disables */
  enabled?: boolean;
}

/** What one delivery attempt came to (the job kind retries on `retry`). */
export type DeliveryAttemptResult =
  { status: 'delivered' | 'failed' | 'skipped'; error?: string } | { status: 'retry'; error: string };

// ── Schedules (docs/schedules.md) ────────────────────────────────────────────────────

export interface Schedule {
  id: number;
  reportId: number;
  userId: number;
  /** hourly, daily, weekly or a 5-field cron expression, as set */
  every: string;
  /** the cron expression it stands for */
  cron: string;
  /** IANA time zone */
  timezone: string;
  /** each run renders the page in Chromium (docs/rendering.md) */
  render: boolean;
  /** the next run, jitter included */
  nextRunAt: string;
  /** the fixed offset after each slot (docs/schedules.md) */
  jitterMs: number;
  /** a run of it is enqueued or running now */
  running: boolean;
  lastRunAt: string | null;
  lastStatus: RunStatus | null;
  /** why the last run failed (the fetcher's message) */
  lastError: string | null;
  /** the run of the report's history the last scheduled run made */
  lastRunNumber: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface ListedSchedule extends Schedule {
  /** the report's URL */
  url: string;
}

export interface PutScheduleInput {
  every: string;
  /** default UTC */
  timezone?: string | undefined;
  /** each run renders the page in Chromium; 422 under `render` when it cannot here */
  render?: boolean | undefined;
}

/** What one scheduled run (the `schedule.run` job) came to. */
export type ScheduledRunResult =
  | { status: 'completed' | 'failed'; runNumber: number; error: string | null }
  | { status: 'skipped'; reason: string };

/**
 * The owner-level operations (a user id). Services, below, is what callers get: the same with
 * the operations on a user's data taking a Principal (src/services/access.ts applies the key's
 * scopes and projects, then calls these with the user id).
 */
export interface OwnerServices {
  /** whole-site audits (docs/sites.md) */
  batches: BatchServices;
  auth: {
    /**
     * The owner of an API key, or null for an unknown or revoked key (the HTTP layer answers
     * 401). Compares hashes in constant time; records last_used_at at most once a minute.
     */
    authenticate(token: string): Promise<AuthContext | null>;
    /**
     * A signed-in page session opened with key `keyId`: its user (with the name to show) while
     * that key exists, belongs to the user and is not revoked; otherwise null (signed out).
     */
    session(userId: number, keyId: number): Promise<(AuthContext & { name: string }) | null>;
  };
  reports: {
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
    forViewer(
      id: number,
      viewer: ReportViewer | null,
      grants?: ReportGrants,
    ): Promise<ReportForViewer | null>;
    /** fetches and audits, then stores; 422 `url` when the page cannot be fetched (nothing stored) */
    create(userId: number, input: CreateReportInput): Promise<StoredReport>;
    /** privacy/password rules of SPEC §3; `results: true` re-audits (422 `url` leaves it unchanged) */
    update(userId: number, id: number, input: UpdateReportInput): Promise<StoredReport>;
    /** 404 when missing or another user's */
    delete(userId: number, id: number): Promise<void>;
    /**
     * Audits the report's page again (docs/history.md). Completed: the results become a new
     * current run, and the outcome has the diff from the run before. The page could not be
     * fetched: a failed run with the reason is recorded and the current results stay — this is
     * an outcome, never a throw. Throws 404 only when the report is missing or another user's.
     * Does not move `updatedAt` (password passes stay valid); `update({results: true})` does.
     */
    reaudit(
      userId: number,
      id: number,
      options: { source: RunSource; render?: boolean },
    ): Promise<ReauditOutcome>;
    /** a page of the report's runs, newest first (the current one among them); 404 as getOwned */
    runs(userId: number, id: number, query: ListRunsQuery): Promise<Page<RunSummary>>;
    /** one run in full; 404 when the report or the run is not there (never made, or pruned) */
    run(userId: number, id: number, number: number): Promise<Run>;
    /**
     * Run `from` compared with run `to` (default: the current run, and the completed run before
     * `to`); 422 under `from`/`to` for a run that is not kept, failed, or has none before it.
     */
    diff(
      userId: number,
      id: number,
      query: { from?: number | undefined; to?: number | undefined },
    ): Promise<ReportDiff>;
    /** the report page's history of a report the viewer may see (forViewer decided that) */
    pageHistory(report: StoredReport): Promise<ReportHistory>;
    /** the trend of each of these reports of the user (the dashboard's arrows); others are left out */
    trends(userId: number, ids: number[]): Promise<Map<number, ReportTrend>>;
    /** true when the report exists, has a password and `password` matches it */
    verifyPassword(id: number, password: string): Promise<boolean>;
  };
  projects: {
    list(userId: number, query: ListProjectsQuery): Promise<Page<ProjectSummary>>;
    /**
     * deletes the project and all its reports in one transaction; 404 when it does not exist.
     * `project` is a name as a user gives it (case and one leading www. do not matter).
     */
    delete(userId: number, project: string): Promise<{ reportsDeleted: number }>;
    /** the statistics of these projects of the user (one aggregate query), by name */
    stats(userId: number, projects: string[]): Promise<Map<string, ProjectStats>>;
  };
  users: {
    /**
     * A new user and its first key; 422 `name` when taken or invalid. `key` fixes the first
     * key's secret (PAGEGRADE_BOOTSTRAP_KEY); otherwise it is random.
     */
    create(name: string, options?: { key?: string | undefined }): Promise<{ user: User; key: IssuedKey }>;
    /** by name, or by id when `nameOrId` is all digits (a name is tried first) */
    find(nameOrId: string | number): Promise<User | null>;
    get(id: number): Promise<User | null>;
    list(): Promise<User[]>;
  };
  keys: {
    /**
     * a new key for a user (name or id); 404 for an unknown user; 422 `scope`, `projects` or
     * `expires_at` for invalid options
     */
    create(user: string | number, options?: KeyOptions): Promise<IssuedKey>;
    /**
     * the dashboard's: a key for the actor's own user. Managing keys takes a write key for every
     * project (403 otherwise: a limited key cannot mint a wider one).
     */
    createOwn(who: Principal, options?: KeyOptions): Promise<IssuedKey>;
    /** the actor's own key (the dashboard): 404 when missing or another user's; 403 as createOwn */
    revokeOwn(who: Principal, keyId: number): Promise<ApiKeyInfo>;
    /** every key, or one user's (404 for an unknown user); oldest first */
    list(user?: string | number): Promise<ApiKeyInfo[]>;
    /** 404 for an unknown key; revoking a revoked key keeps its first revocation date */
    revoke(keyId: number): Promise<ApiKeyInfo>;
  };
  settings: {
    /** config.sessionSecret, or a random secret generated on first use and kept in the database */
    sessionSecret(): Promise<string>;
  };
  webhooks: {
    /** 422 `url` when refused by the address guard (or not resolvable); the secret is returned once, here */
    create(userId: number, input: CreateWebhookInput): Promise<{ webhook: Webhook; secret: string }>;
    /** newest first */
    list(userId: number, page: { page: number; perPage: number }): Promise<Page<Webhook>>;
    /** 404 when missing or another user's */
    get(userId: number, id: number): Promise<Webhook>;
    update(userId: number, id: number, input: UpdateWebhookInput): Promise<Webhook>;
    /** its deliveries go with it (pending ones are not sent) */
    delete(userId: number, id: number): Promise<void>;
    /** newest first; 404 for the webhook as in get */
    deliveries(
      userId: number,
      id: number,
      query: { status?: DeliveryStatus | undefined; page: number; perPage: number },
    ): Promise<Page<WebhookDelivery>>;
    /** one delivery with the body it sends */
    delivery(userId: number, id: number, deliveryId: number): Promise<WebhookDelivery & { payload: unknown }>;
    /** a new delivery of the same event (same webhook-id and body); 422 when the webhook is disabled */
    redeliver(userId: number, id: number, deliveryId: number): Promise<WebhookDelivery>;
    /** a `webhook.test` delivery to this webhook; 422 when it is disabled */
    test(userId: number, id: number): Promise<WebhookDelivery>;
    /**
     * One delivery (and its job) per enabled webhook of the user that takes `event`, in `trx`
     * when given (they exist if and only if it commits). Returns how many.
     */
    emit(
      userId: number,
      event: WebhookEvent,
      /** the payload's `data`, or a function that reads it (called only when some webhook takes the event) */
      data: Record<string, unknown> | (() => Promise<Record<string, unknown>>),
      options?: { trx?: Db },
    ): Promise<number>;
    /** One attempt of a delivery (the webhook.deliver job): sign, send through the guard, record. */
    attempt(
      deliveryId: number,
      job: { attempt: number; maxAttempts: number; signal?: AbortSignal },
    ): Promise<DeliveryAttemptResult>;
  };
  schedules: {
    /**
     * Sets the report's schedule (creates it, or replaces its settings; the next run is computed
     * from now). 404 for a report missing or another user's; 422 under `every` / `timezone`.
     */
    put(
      userId: number,
      reportId: number,
      input: PutScheduleInput,
    ): Promise<{ schedule: Schedule; created: boolean }>;
    /** 404 when the report is missing or another user's, or has no schedule */
    get(userId: number, reportId: number): Promise<Schedule>;
    /** 404 as get */
    delete(userId: number, reportId: number): Promise<void>;
    /** newest first, with the reports' URLs and next runs */
    list(userId: number, page: { page: number; perPage: number }): Promise<Page<ListedSchedule>>;
    /** the schedules of these reports of the user (the dashboard), by report id */
    ofReports(userId: number, reportIds: number[]): Promise<Map<number, Schedule>>;
    /**
     * The scheduler's tick: claims the due schedules (atomically, across processes) and enqueues
     * one `schedule.run` job per due slot. Returns how many were enqueued.
     */
    enqueueDue(options?: { signal?: AbortSignal; batch?: number }): Promise<number>;
    /** One scheduled run (the `schedule.run` job): an ordinary re-audit, recorded on the schedule. */
    run(
      scheduleId: number,
      slot: string,
      job: { attempt: number; maxAttempts: number },
    ): Promise<ScheduledRunResult>;
  };
}

/** A method whose first parameter is the user id, taking a Principal instead. */
type ByPrincipal<T, Skip extends keyof T = never> = {
  [K in keyof T]: K extends Skip
    ? T[K]
    : T[K] extends (userId: number, ...rest: infer A) => infer R
      ? (who: Principal, ...rest: A) => R
      : T[K];
};

/** The services as routes, pages and the CLI use them (see OwnerServices). */
export interface Services extends Omit<OwnerServices, 'reports' | 'projects' | 'webhooks'> {
  reports: ByPrincipal<OwnerServices['reports'], 'forViewer' | 'verifyPassword' | 'pageHistory'>;
  projects: ByPrincipal<OwnerServices['projects']>;
  webhooks: ByPrincipal<OwnerServices['webhooks'], 'emit' | 'attempt'>;
  account: {
    /** the actor's user and key; counts only what the key may see */
    show(actor: AuthContext): Promise<Account>;
  };
  /** the PDF reports' branding, per user (src/services/branding.service.ts) */
  branding: BrandingServices;
  /** branded PDF reports printed by Chromium (src/services/pdf.service.ts) */
  pdf: PdfServices;
}

export type { AuditReport, ResultBand };
