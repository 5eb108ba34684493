// One audit of a page with the service's configuration (limits, address guard, user agent):
// used by creating a report and by re-auditing one.
import { FetchError, type AuditReport } from '../analyzer/types.js';
import type { AuditColumns } from '../store/reports.repository.js';
import type { ServiceContext } from './context.js';

/** A FetchError, also when it crossed a module boundary (another copy of the class). */
export function isFetchError(err: unknown): err is Error {
  return err instanceof FetchError || (err instanceof Error && err.name === 'FetchError');
}

/** Fetches and audits `url`; throws the fetcher's FetchError when the page cannot be fetched. */
export function auditPage(ctx: ServiceContext, url: string): Promise<AuditReport> {
  const { config } = ctx;
  return ctx.analyze(url, {
    allowPrivateHosts: config.allowPrivateHosts,
    timeoutMs: config.fetchTimeoutMs,
    maxBytes: config.fetchMaxBytes,
    ...(config.userAgent !== null ? { userAgent: config.userAgent } : {}),
  });
}

/** The audit part of a report as the store writes it. */
export function auditColumns(a: AuditReport): AuditColumns {
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
