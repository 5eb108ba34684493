// Rendered audits, the pure part (no I/O): the DOM Chromium serialised after load goes through
// the same artifacts and checks as the raw HTML (a copy of the snapshot with the rendered
// markup as its body), the browser-only checks are judged from what the browser saw, and the
// `render` object records the differences. The browser side is src/render/browser.ts.
import { accessibilityChecks } from './accessibility.js';
import { buildArtifacts } from './artifacts/index.js';
import type { Artifacts } from './artifacts/types.js';
import { runChecks } from './run-checks.js';
import { scoreResults } from './scoring.js';
import {
  AXE_IMPACTS,
  type AuditReport,
  type AxeImpact,
  type CheckResult,
  type PageSnapshot,
  type RenderDifference,
  type RenderInfo,
  type RenderOutcome,
  type RenderSuccess,
} from './types.js';

// The render shapes live on the ground floor (types.ts), beside the report that holds them;
// re-exported here for the modules that import them from this path (services, pages).
export { AXE_IMPACTS, type RenderInfo, type RenderOutcome } from './types.js';

/** Lab thresholds (the values Lighthouse and Core Web Vitals call "good"). */
export const LAB_LIMITS = { lcp_ms: 2500, cls: 0.1, tbt_ms: 200 } as const;

/** The ids of the checks browserChecks judges (`pagegrade ci` accepts them in its assertions). */
export const BROWSER_CHECK_IDS = [
  'console_errors',
  'failed_requests',
  'largest_contentful_paint',
  'cumulative_layout_shift',
  'total_blocking_time',
  'javascript_indexing',
] as const;

function check(
  id: string,
  category: CheckResult['category'],
  priority: CheckResult['priority'],
  passed: boolean | null,
  titles: [string, string],
  message: string,
  howToFix: string,
  extra: Partial<Pick<CheckResult, 'value' | 'details'>> = {},
): CheckResult {
  const r: CheckResult = {
    id,
    category,
    priority,
    passed,
    title: passed === true ? titles[0] : titles[1],
    message,
  } as CheckResult;
  if (extra.value !== undefined) r.value = extra.value;
  if (extra.details !== undefined) r.details = extra.details;
  if (passed === null) r.inconclusive_reason = 'no_data';
  r.how_to_fix = howToFix;
  return r;
}

/** a robots or pagegrade meta tag says noindex (the header is the same before and after JavaScript) */
const noindexOf = (a: Artifacts): boolean =>
  a.indexing.noindexMetas.some((m) => m.name === 'robots' || m.name === 'pagegrade');
const canonicalOf = (a: Artifacts): string | null =>
  a.links.find((l) => l.rel.includes('canonical'))?.url ?? null;

/** The browser-only checks, judged from one visit. */
export function browserChecks(r: RenderSuccess, raw: Artifacts, rendered: Artifacts): CheckResult[] {
  const out: CheckResult[] = [];
  const errors = r.console_errors;
  out.push(
    check(
      'console_errors',
      'miscellaneous',
      'medium',
      errors.length === 0,
      ['No errors in the browser console', 'Errors in the browser console'],
      errors.length === 0
        ? 'The page logged no error while it loaded.'
        : `The page logged ${errors.length} error${errors.length === 1 ? '' : 's'} while it loaded.`,
      'Open the browser console on the page and fix the scripts that throw or log errors while it loads.',
      errors.length
        ? { value: errors.length, details: { type: 'list', items: errors.slice(0, 20) } }
        : { value: 0 },
    ),
  );
  const failed = r.failed_requests;
  out.push(
    check(
      'failed_requests',
      'miscellaneous',
      'medium',
      failed.length === 0,
      ['Every resource loaded', 'Some resources failed to load'],
      failed.length === 0
        ? 'Every request the page made while loading was answered.'
        : `${failed.length} request${failed.length === 1 ? '' : 's'} made by the page failed or answered an error.`,
      'Fix or remove the references to resources that fail (broken URLs, errors, hosts that cannot be reached).',
      failed.length
        ? {
            value: failed.length,
            details: {
              type: 'table',
              headings: ['URL', 'Status', 'Why'],
              rows: failed.slice(0, 20).map((f) => [f.url, f.status, f.reason]),
              ...(failed.length > 20 ? { truncated: failed.length - 20 } : {}),
            },
          }
        : { value: 0 },
    ),
  );
  const { lcp_ms, cls, tbt_ms } = r.lab;
  out.push(
    check(
      'largest_contentful_paint',
      'performance',
      'medium',
      lcp_ms === null ? null : lcp_ms <= LAB_LIMITS.lcp_ms,
      ['Largest contentful paint is fast', 'Largest contentful paint is slow'],
      lcp_ms === null
        ? 'The browser reported no largest contentful paint for this page.'
        : `The largest element was painted after ${lcp_ms} ms (good: at most ${LAB_LIMITS.lcp_ms} ms; lab measure on the auditing machine).`,
      'Serve the main content in the HTML, make its image small and preloaded, and defer scripts that delay rendering.',
      lcp_ms === null ? {} : { value: lcp_ms },
    ),
  );
  out.push(
    check(
      'cumulative_layout_shift',
      'performance',
      'medium',
      cls === null ? null : cls <= LAB_LIMITS.cls,
      ['The layout is stable while loading', 'The layout shifts while loading'],
      cls === null
        ? 'The browser reported no layout shift data.'
        : `Cumulative layout shift during load: ${cls} (good: at most ${LAB_LIMITS.cls}).`,
      'Give images, embeds and ads explicit sizes, and do not insert content above what is already shown.',
      cls === null ? {} : { value: cls },
    ),
  );
  out.push(
    check(
      'total_blocking_time',
      'performance',
      'medium',
      tbt_ms === null ? null : tbt_ms <= LAB_LIMITS.tbt_ms,
      ['The main thread is rarely blocked', 'Long tasks block the main thread'],
      tbt_ms === null
        ? 'The browser reported no long task data.'
        : `Total blocking time during load: ${tbt_ms} ms (good: at most ${LAB_LIMITS.tbt_ms} ms).`,
      'Split long scripts, load less JavaScript up front and defer what is not needed for the first view.',
      tbt_ms === null ? {} : { value: tbt_ms },
    ),
  );
  const changes: string[] = [];
  const [ni0, ni1] = [noindexOf(raw), noindexOf(rendered)];
  if (ni0 !== ni1)
    changes.push(
      ni1
        ? 'JavaScript adds a noindex robots directive.'
        : 'JavaScript removes the noindex robots directive.',
    );
  const [c0, c1] = [canonicalOf(raw), canonicalOf(rendered)];
  if (c0 !== c1)
    changes.push(`JavaScript changes the canonical URL from ${c0 ?? '(none)'} to ${c1 ?? '(none)'}.`);
  out.push(
    check(
      'javascript_indexing',
      'seo',
      'high',
      changes.length === 0,
      ['JavaScript leaves indexing directives alone', 'JavaScript changes indexing directives'],
      changes.length === 0
        ? 'The robots directives and the canonical URL are the same before and after JavaScript.'
        : changes.join(' '),
      'Put the robots meta tag and the canonical link in the HTML the server sends, and do not change them from scripts: search engines may read either version.',
      changes.length ? { details: { type: 'list', items: changes } } : {},
    ),
  );
  return out;
}

const linksOf = (a: Artifacts) => a.anchors.filter((x) => x.url !== null).length;

/**
 * The report of a rendered audit: `raw` is the raw HTML's audit of `snapshot`. A failed render
 * keeps the raw results and marks the rendered audit inconclusive with the reason.
 */
export function combineRendered(
  snapshot: PageSnapshot,
  raw: AuditReport,
  outcome: RenderOutcome,
  thresholds: Partial<Record<string, number>> = {},
  onRenderedArtifacts?: (artifacts: Artifacts) => void,
): AuditReport {
  const rawSummary = { result: raw.result, score: raw.score, categories: raw.categories };
  if (!outcome.ok) {
    return {
      ...raw,
      categories: {
        ...raw.categories,
        accessibility: { ...raw.categories.accessibility, not_judged: 'the render did not complete' },
      },
      render: {
        mode: 'rendered',
        status: 'inconclusive',
        reason: outcome.reason,
        timings: outcome.timings,
        requests: 0,
        bytes: 0,
        refused: [],
        refused_count: 0,
        raw: rawSummary,
        differences: [],
        dom: emptyDom(),
        browser_checks: [],
        accessibility: null,
      },
    };
  }
  const renderedBody = Buffer.from(outcome.html, 'utf8');
  const renderedSnapshot: PageSnapshot = { ...snapshot, body: renderedBody, text: outcome.html };
  const rawArtifacts = buildArtifacts(snapshot);
  const renderedArtifacts = buildArtifacts(renderedSnapshot);
  onRenderedArtifacts?.(renderedArtifacts);
  const results = runChecks(renderedArtifacts, thresholds);
  const differences: RenderDifference[] = [];
  for (const [id, r] of Object.entries(results)) {
    const before = raw.results[id];
    if (!before || before.passed === r.passed) continue;
    differences.push({
      id,
      raw: { passed: before.passed, title: before.title, message: before.message },
      rendered: { passed: r.passed, title: r.title, message: r.message },
    });
  }
  const extra = browserChecks(outcome, rawArtifacts, renderedArtifacts);
  for (const c of extra) results[c.id] = c;
  // the accessibility category: axe-core's rules as checks (accessibility.ts), scored
  if (outcome.axe)
    for (const c of accessibilityChecks(outcome.axe, outcome.axe_passes ?? [])) results[c.id] = c;
  const { score, result, categories } = scoreResults(Object.values(results), {
    accessibility: outcome.axe ? 'axe-core found no rule that applies to the page' : 'axe-core did not run',
  });
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 } as Record<AxeImpact, number>;
  for (const v of outcome.axe ?? []) counts[v.impact] = (counts[v.impact] ?? 0) + 1;
  const axe = outcome.axe
    ? [...outcome.axe].sort((a, b) => AXE_IMPACTS.indexOf(a.impact) - AXE_IMPACTS.indexOf(b.impact))
    : null;
  return {
    ...raw,
    result,
    score,
    categories,
    results,
    render: {
      mode: 'rendered',
      status: 'completed',
      timings: outcome.timings,
      requests: outcome.requests,
      bytes: outcome.bytes,
      refused: outcome.refused.slice(0, 20),
      refused_count: outcome.refused.length,
      raw: rawSummary,
      differences,
      dom: {
        elements: { raw: rawArtifacts.elementCount, rendered: renderedArtifacts.elementCount },
        links: { raw: linksOf(rawArtifacts), rendered: linksOf(renderedArtifacts) },
        words: { raw: rawArtifacts.wordCount, rendered: renderedArtifacts.wordCount },
        images: { raw: rawArtifacts.images.length, rendered: renderedArtifacts.images.length },
        headings: { raw: rawArtifacts.headings.length, rendered: renderedArtifacts.headings.length },
      },
      browser_checks: extra.map((c) => c.id),
      accessibility: axe ? { counts, violations: axe } : null,
    },
  };
}

function emptyDom(): RenderInfo['dom'] {
  const z = () => ({ raw: 0, rendered: 0 });
  return { elements: z(), links: z(), words: z(), images: z(), headings: z() };
}
