// What every feature's service is built with: the configuration the services read and the
// analyzer's signature (the real engine, or a stand-in in tests).
import type { AnalyzeOptions, AuditReport } from '../../analyzer/types.js';
import type { OidcConfig } from '../../config.js';

export type AnalyzeFn = (url: string, options: AnalyzeOptions) => Promise<AuditReport>;

/** What the services need from the configuration (a Config satisfies it). */
export interface ServicesConfig {
  /**
   * PAGEGRADE_WORKER: false, this process runs no jobs (an API process, workers apart): work a
   * request would do after answering goes to a worker instead (a cancelled batch's end)
   */
  readonly worker?: boolean;
  readonly allowPrivateHosts: boolean;
  readonly fetchTimeoutMs: number;
  readonly fetchMaxBytes: number;
  /** null = the engine's default user agent */
  readonly userAgent: string | null;
  /** null = generated once and kept in the settings table */
  readonly sessionSecret: string | null;
  readonly bootstrapKey: string | null;
  /**
   * how long at most an API key is kept in memory once seen (PAGEGRADE_KEY_CACHE_MS; 0 = not);
   * default 10 s. Any change to keys empties the cache at once (context.ts `keyChanges`)
   */
  readonly keyCacheMs?: number;
  /** runs kept per report, the current one included (PAGEGRADE_HISTORY_LIMIT); default 100 */
  readonly historyLimit?: number;
  /** builds kept per branch that is no build's base branch (PAGEGRADE_BUILDS_KEEP_PER_BRANCH); default 20 */
  readonly buildsKeepPerBranch?: number;
  /** days an audit log entry is kept (PAGEGRADE_AUDIT_LOG_RETENTION_DAYS); default 365 */
  readonly auditLogRetentionDays?: number;
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
  /** PAGEGRADE_REGRESSION_PAGE_SHARE, default 0.1 (docs/sites.md, "Comparing crawls") */
  readonly regressionPageShare?: number;
  /** PAGEGRADE_CRAWL_DELAY_MS, default 250 */
  readonly crawlDelayMs?: number;
  /** false (PAGEGRADE_LINK_CHECKS=0): a batch's end checks no URL its crawl did not request */
  readonly linkChecks?: boolean;
  /** PAGEGRADE_CRAWL_CONCURRENCY, default 2 */
  readonly crawlConcurrency?: number;
  /** PAGEGRADE_EXTRACT_TIMEOUT_MS: a custom extractor's time on one page (src/services/batches/extract-pool.ts), default 5 s */
  readonly extractTimeoutMs?: number;
  /** PAGEGRADE_CRAWL_TRACKING_PARAMS */
  readonly crawlTrackingParams?: readonly string[];
  /** PAGEGRADE_SECRET_KEY as 64 hex digits: encrypts the projects' crawl secrets; null/absent = unset */
  readonly secretKey?: string | null;
  /** PAGEGRADE_SMTP_URL: reset links by email (src/services/signin/mail.ts); null/absent = no email */
  readonly smtpUrl?: string | null;
  /**
   * scrypt's cost for people's passwords (default PERSON_SCRYPT: N=2^17, r=8, p=1, OWASP's); a
   * seam for tests, which sign in many times — never lower in a service
   */
  readonly passwordScrypt?: { N: number; r: number; p: number };
  /** PAGEGRADE_SMTP_FROM */
  readonly smtpFrom?: string;
  /** single sign-on with OpenID Connect (PAGEGRADE_OIDC_*; src/services/sso); null/absent = off */
  readonly oidc?: OidcConfig | null;
}
