// What every service module receives.
import type { Queue } from '../../contract/jobs.js';
import type { ChangeBus } from './changes.js';
import type { Db } from '../../store/database.js';
import type { KeyChangeWatch } from '../../store/key-changes.js';
import type { AnalyzeFn, ServicesConfig } from './config.js';
import type { GuardOptions, SiteHeaders } from '../../analyzer/fetch/index.js';
import type { ReportSummary } from '../reports/types.js';
import type { ReportDiff } from '../history/types.js';
import type { RenderOutcome } from '../../analyzer/rendered.js';
import type { PageSnapshot } from '../../analyzer/types.js';

/** What the services need of the renderer (src/render/browser.ts's Renderer). */
export interface RenderService {
  /** null when Chromium can be started, otherwise why not (with how to install it) */
  unavailable(): string | null;
  /**
   * `signal` ends the wait for a slot of the pool, or the visit (a failure; never throws);
   * `siteHeaders` go with the page's requests to that origin only (a project's crawl settings)
   */
  render(snapshot: PageSnapshot, signal?: AbortSignal, siteHeaders?: SiteHeaders): Promise<RenderOutcome>;
  /** a PDF of a self-contained HTML document (src/render/browser.ts's Renderer.pdf) */
  pdf?(
    document: string,
    options: { footerTemplate: string; headerTemplate?: string },
  ): Promise<{ pdf: Buffer; blocked: string[] }>;
}

/**
 * Tells the other processes that API keys changed (a revocation), so that they drop their key
 * caches: Redis pub/sub (src/store/redis.ts, createKeyBus) when REDIS_URL is set. A hint on top
 * of the database's own signal (`keyChanges`), which is the one relied on.
 */
export interface KeyBus {
  publish(): Promise<void>;
  subscribe(onChange: () => void): void;
}

export interface ServiceContext {
  db: Db;
  analyze: AnalyzeFn;
  config: ServicesConfig;
  now: () => Date;
  /** the job queue: a service enqueues work (with `trx` to commit it with its transaction) */
  queue: Queue;
  /** test seam for the webhook sender's address guard (DNS, classification); never from config */
  webhookGuard?: Pick<GuardOptions, 'lookup' | 'classifyAddress'>;
  /** Chromium for rendered audits (src/render/browser.ts); absent: render=1 answers 422 */
  renderer?: RenderService;
  /** emits the report events to webhooks (report.created, .completed, .regressed, .failed; batch.page.completed) */
  reportEvents?: ReportEvents;
  /** carries key revocations to the other processes' key caches (absent: this process only) */
  keyBus?: KeyBus;
  /**
   * the database's signal of API key changes made anywhere (src/store/key-changes.ts); absent,
   * the key cache is off: every request reads its key
   */
  keyChanges?: KeyChangeWatch;
  /** live changes (a batch's progress) to the pages that follow them (changes.ts) */
  changes: ChangeBus;
}

/** The report events a webhook can take, emitted where reports change (events.ts). */
export interface ReportEvents {
  /** a report was stored */
  created(trx: Db, userId: number, reportId: number): Promise<void>;
  /** a batch's page was audited and its report stored (batch.page.completed; no report.created) */
  batchPageCompleted(
    trx: Db,
    userId: number,
    reportId: number,
    batch: { id: number; url: string },
  ): Promise<void>;
  /**
   * a re-audit completed: report.completed, and report.regressed with the diff (the shape of
   * GET /reports/{id}/diff) when it is a regression (isRegression: the band dropped, or a
   * high-priority check newly failed)
   */
  completed(trx: Db, userId: number, reportId: number, regression: ReportDiff | null): Promise<void>;
  /** a re-audit could not fetch the page (the report is unchanged) */
  failed(trx: Db | undefined, report: ReportSummary, reason: string): Promise<void>;
}
