// One audit of a page with the service's configuration (limits, address guard, user agent):
// used by creating a report and by re-auditing one.
import { FetchError, type AuditReport, type PageSnapshot } from '../../analyzer/types.js';
import type { RenderOutcome } from '../../analyzer/rendered.js';
import type { SiteHeaders } from '../../analyzer/fetch/index.js';
import { validationError } from '../../errors.js';
import { INSTALL_HINT } from '../../render/hint.js';
import type { AuditColumns } from '../../store/reports.repository.js';
import { auditDuration, audits, fetchFailures } from '../../metrics.js';
import type { ServiceContext } from '../shared/context.js';
import { withProjectRules } from './ignore.js';

/** A FetchError, also when it crossed a module boundary (another copy of the class). */
export function isFetchError(err: unknown): err is FetchError {
  return err instanceof FetchError || (err instanceof Error && err.name === 'FetchError');
}

/** Why a rendered audit cannot be made here (no renderer, no Chromium), or null. */
export function renderUnavailable(ctx: ServiceContext): string | null {
  if (!ctx.renderer) return `Rendered audits are not available in this process. ${INSTALL_HINT}`;
  return ctx.renderer.unavailable();
}

/** What renders a fetched page in a rendered audit (AnalyzeOptions.render). */
type RenderHook = (snapshot: PageSnapshot) => Promise<RenderOutcome>;

/**
 * The render hook of a rendered audit: a page of the process's pool (PAGEGRADE_RENDER_CONCURRENCY
 * pages at once, the others wait in line; `signal` ends the wait or the visit), or why this
 * process cannot render. Stores, re-audits and schedules answer 422 with the reason; a batch
 * page keeps its raw results with the reason (its batch was accepted where Chromium was).
 */
export function renderHook(
  ctx: ServiceContext,
  signal?: AbortSignal,
  siteHeaders?: SiteHeaders,
): RenderHook | { unavailable: string } {
  const why = renderUnavailable(ctx);
  if (why !== null) return { unavailable: why };
  const renderer = ctx.renderer!;
  return (snapshot) => renderer.render(snapshot, signal, siteHeaders);
}

/**
 * Fetches and audits `url`; throws the fetcher's FetchError when the page cannot be fetched.
 * `render`: the page is also rendered by Chromium (docs/rendering.md) — the hook that stores,
 * re-audits, batches and schedules pass through; without Chromium a 422 under `render`.
 * `userId`: the audit is the user's, and its project's ignore rules apply (./ignore.ts); null:
 * no user's (a benchmark), no rules.
 */
export async function auditPage(
  ctx: ServiceContext,
  url: string,
  options: { render?: boolean; userId: number | null },
): Promise<AuditReport> {
  const { config } = ctx;
  let render: RenderHook | undefined;
  if (options.render) {
    const hook = renderHook(ctx);
    if (typeof hook !== 'function') throw validationError({ render: [hook.unavailable] });
    render = hook;
  }
  const start = performance.now();
  let report: AuditReport;
  try {
    report = await ctx.analyze(url, {
      allowPrivateHosts: config.allowPrivateHosts,
      timeoutMs: config.fetchTimeoutMs,
      maxBytes: config.fetchMaxBytes,
      ...(config.userAgent !== null ? { userAgent: config.userAgent } : {}),
      ...(render ? { render } : {}),
    });
    countAudit(start, report);
  } catch (err) {
    countAudit(start, err);
    throw err;
  }
  return options.userId === null ? report : withProjectRules(ctx.db, options.userId, report, ctx.now());
}

/**
 * Counts one audit that began at `start` (performance.now()) in the metrics (src/metrics.ts):
 * a report by its result; the fetcher's FetchError as 'failed', with its reason. Anything else
 * thrown (a shutdown, a bug) is not an audit's outcome and is not counted. Every page audit
 * counts: a report stored or re-audited, a scheduled run, a batch's page.
 */
export function countAudit(start: number, outcome: AuditReport | unknown): void {
  const seconds = (performance.now() - start) / 1000;
  if (isFetchError(outcome)) {
    audits.inc({ result: 'failed' });
    auditDuration.observe({ result: 'failed' }, seconds);
    const code = (outcome as { code?: unknown }).code;
    fetchFailures.inc({ reason: typeof code === 'string' ? code : 'unknown' });
  } else if (outcome !== null && typeof outcome === 'object' && 'result' in outcome) {
    const { result } = outcome as AuditReport;
    audits.inc({ result });
    auditDuration.observe({ result }, seconds);
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
    render: a.render ?? null,
  };
}
