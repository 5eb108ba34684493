// One audit of a page with the service's configuration (limits, address guard, user agent):
// used by creating a report and by re-auditing one.
import { FetchError, type AuditReport } from '../analyzer/types.js';
import type { AuditColumns } from '../store/reports.repository.js';
import { auditDuration, audits, fetchFailures } from '../metrics.js';
import type { ServiceContext } from './context.js';

/** A FetchError, also when it crossed a module boundary (another copy of the class). */
export function isFetchError(err: unknown): err is Error {
  return err instanceof FetchError || (err instanceof Error && err.name === 'FetchError');
}

/** Fetches and audits `url`; throws the fetcher's FetchError when the page cannot be fetched. */
export async function auditPage(ctx: ServiceContext, url: string): Promise<AuditReport> {
  const { config } = ctx;
  const start = performance.now();
  const seconds = () => (performance.now() - start) / 1000;
  try {
    const report = await ctx.analyze(url, {
      allowPrivateHosts: config.allowPrivateHosts,
      timeoutMs: config.fetchTimeoutMs,
      maxBytes: config.fetchMaxBytes,
      ...(config.userAgent !== null ? { userAgent: config.userAgent } : {}),
    });
    audits.inc({ result: report.result });
    auditDuration.observe({ result: report.result }, seconds());
    return report;
  } catch (err) {
    if (isFetchError(err)) {
      audits.inc({ result: 'failed' });
      auditDuration.observe({ result: 'failed' }, seconds());
      const code = (err as { code?: unknown }).code;
      fetchFailures.inc({ reason: typeof code === 'string' ? code : 'unknown' });
    }
    throw err;
  }
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
