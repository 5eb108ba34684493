// analyze(url, options) → AuditReport: the one door the API, the CLI and the tests use.
// fetch (network, once) → artifacts (one streaming pass) → checks (pure) → scoring (a table).
import { fetchPage } from './fetch/index.js';
import { buildArtifacts } from './artifacts/index.js';
import { combineRendered } from './rendered.js';
import { runChecks } from './run-checks.js';
import { capMessage, NEEDS_RENDER, scoreResults } from './scoring.js';
import { FetchError, type AnalyzeOptions, type AuditReport, type PageSnapshot } from './types.js';
import { normalizeUrl, projectOf } from './url.js';

export * from './types.js';
export { normalizeUrl, projectOf } from './url.js';
export { fetchSiteFile } from './fetch/index.js';

/** Fetches and audits a page. Throws FetchError when the page cannot be fetched. */
export async function analyze(url: string, options: AnalyzeOptions = {}): Promise<AuditReport> {
  const normalized = normalizeUrl(url);
  if (normalized === null) throw new FetchError('invalid_url', 'The URL must be an absolute http or https URL.');
  const snapshot = await fetchPage(normalized, options);
  const raw = analyzeSnapshot(snapshot, options);
  if (!options.render) return raw;
  // one visit: the browser is given the fetched page's bytes (docs/rendering.md)
  return combineRendered(
    snapshot,
    raw,
    await options.render(snapshot),
    options.thresholds,
    options.onRenderedArtifacts,
  );
}

/** Audits an already fetched page (no I/O): used by analyze() and by the benchmark. */
export function analyzeSnapshot(
  snapshot: PageSnapshot,
  options: Pick<AnalyzeOptions, 'thresholds' | 'onArtifacts'> = {},
  now: Date = new Date(),
): AuditReport {
  const artifacts = buildArtifacts(snapshot);
  options.onArtifacts?.(artifacts);
  const results = runChecks(artifacts, options.thresholds ?? {});
  // accessibility is measured by axe-core in a browser: a raw audit does not judge it
  const { score, result, categories, cap } = scoreResults(Object.values(results), {
    accessibility: NEEDS_RENDER,
  });
  if (cap !== null) {
    const capping = results[cap.check]!;
    results[cap.check] = { ...capping, message: `${capping.message} ${capMessage(cap)}` };
  }
  return {
    url: snapshot.url,
    final_url: snapshot.finalUrl,
    project: projectOf(snapshot.url),
    result,
    score,
    generated_at: now.toISOString(),
    categories,
    results,
    page: {
      status: snapshot.status,
      http_version: snapshot.httpVersion,
      redirects: snapshot.redirects,
      timings: snapshot.timings,
      sizes: { transfer_bytes: snapshot.transferBytes, html_bytes: snapshot.body.length },
      requests: artifacts.requestCounts,
    },
  };
}
