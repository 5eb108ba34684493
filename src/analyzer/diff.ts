// The diff of two runs of a page: one pure function (no I/O) that the API's presenter, the
// report page and the CLI's printer all render. The shape is documented in docs/history.md and
// in the OpenAPI document (RunDiff in src/http/schemas.ts); it only ever grows.
//
// Every check that changed appears exactly once: in `newly_failed`, `newly_passed` or
// `newly_inconclusive` when its state changed (with both values), else in `value_changed` when
// only its value did. Durations measured on the run (page timings, checks marked `measuredMs`)
// count as changed only past a noise floor, so two audits of an unchanged page diff empty.
import { checks as registry } from './checks/index.js';
import {
  CATEGORIES,
  PRIORITIES,
  RESULTS,
  type Category,
  type CategoryScore,
  type CheckResult,
  type CheckValue,
  type PageInfo,
  type Priority,
  type ResultBand,
} from './types.js';

/** What a diff reads of a run (a stored report, a completed run, or the CLI's audit). */
export interface DiffInput {
  finalUrl: string;
  score: number;
  result: ResultBand;
  categories: Record<Category, CategoryScore>;
  results: Record<string, CheckResult>;
  page: PageInfo;
}

/** A check's state in one run; `absent` when that run has no such check (an older version). */
export type CheckState = 'passed' | 'failed' | 'inconclusive' | 'absent';

export interface CheckChange {
  id: string;
  /** the check's title in the later run (in the earlier one when the later has no such check) */
  title: string;
  category: Category;
  priority: Priority;
  from: CheckState;
  to: CheckState;
  /** the check's value in the earlier run, when it has one */
  from_value?: CheckValue;
  /** the check's value in the later run, when it has one */
  to_value?: CheckValue;
  /** what the check says in the later run (in the earlier one when the later has none) */
  message: string;
}

export type PageFactValue = string | number | null | { url: string; status: number }[];

/**
 * One page fact that changed: `final_url`, `status`, `http_version`, `redirects` (the chain),
 * `sizes.transfer_bytes`, `sizes.html_bytes`, `timings.<dns_ms|connect_ms|tls_ms|ttfb_ms|total_ms>`
 * or `requests.<kind>` (a missing kind counts 0).
 */
export interface PageFactChange {
  fact: string;
  from: PageFactValue;
  to: PageFactValue;
}

export interface ScoreChange {
  from: number;
  to: number;
  /** to − from */
  delta: number;
}

export interface RunDiff {
  /** true when anything below changed */
  changed: boolean;
  score: ScoreChange;
  result: { from: ResultBand; to: ResultBand; change: 'better' | 'worse' | 'same' };
  /** every category, changed or not */
  categories: Record<Category, ScoreChange>;
  checks: {
    newly_failed: CheckChange[];
    newly_passed: CheckChange[];
    newly_inconclusive: CheckChange[];
    /** same state in both runs, different value */
    value_changed: CheckChange[];
  };
  page: PageFactChange[];
}

/** A measured duration counts as changed when it moved by at least both of these. */
export const TIMING_NOISE = { ms: 100, ratio: 0.2 } as const;

const MEASURED_MS = new Set(registry.filter((c) => c.measuredMs).map((c) => c.id));
const PRIORITY_ORDER = Object.fromEntries(PRIORITIES.map((p, i) => [p, i])) as Record<Priority, number>;
const CATEGORY_ORDER = Object.fromEntries(CATEGORIES.map((c, i) => [c, i])) as Record<Category, number>;
const RESULT_ORDER = Object.fromEntries(RESULTS.map((r, i) => [r, i])) as Record<ResultBand, number>;
const TIMINGS = ['dns_ms', 'connect_ms', 'tls_ms', 'ttfb_ms', 'total_ms'] as const;

function stateOf(c: CheckResult | undefined): CheckState {
  if (!c) return 'absent';
  return c.passed === true ? 'passed' : c.passed === false ? 'failed' : 'inconclusive';
}

const same = (a: unknown, b: unknown) =>
  a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));

/** Two durations differ past the noise floor (a null on one side only is a change). */
export function timingChanged(from: number | null | undefined, to: number | null | undefined): boolean {
  if (from === null || from === undefined || to === null || to === undefined) return from !== to;
  const d = Math.abs(to - from);
  return d >= TIMING_NOISE.ms && d >= TIMING_NOISE.ratio * Math.max(from, 0);
}

function valueChanged(id: string, from: CheckValue | undefined, to: CheckValue | undefined): boolean {
  if (MEASURED_MS.has(id) && typeof from === 'number' && typeof to === 'number')
    return timingChanged(from, to);
  return !same(from, to);
}

const byPriority = (a: CheckChange, b: CheckChange) =>
  PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] ||
  CATEGORY_ORDER[a.category] - CATEGORY_ORDER[b.category] ||
  (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function change(from: number, to: number): ScoreChange {
  return { from, to, delta: to - from };
}

function pageChanges(from: DiffInput, to: DiffInput): PageFactChange[] {
  const out: PageFactChange[] = [];
  const add = (fact: string, a: PageFactValue, b: PageFactValue) => {
    if (!same(a, b)) out.push({ fact, from: a, to: b });
  };
  const p = from.page;
  const q = to.page;
  add('final_url', from.finalUrl, to.finalUrl);
  add('status', p.status, q.status);
  add('http_version', p.http_version, q.http_version);
  add('redirects', p.redirects, q.redirects);
  add('sizes.transfer_bytes', p.sizes.transfer_bytes, q.sizes.transfer_bytes);
  add('sizes.html_bytes', p.sizes.html_bytes, q.sizes.html_bytes);
  for (const t of TIMINGS) {
    const a = p.timings[t] ?? null;
    const b = q.timings[t] ?? null;
    if (timingChanged(a, b)) out.push({ fact: `timings.${t}`, from: a, to: b });
  }
  const kinds = [...new Set([...Object.keys(p.requests ?? {}), ...Object.keys(q.requests ?? {})])].sort();
  for (const k of kinds) add(`requests.${k}`, p.requests?.[k] ?? 0, q.requests?.[k] ?? 0);
  return out;
}

/** What changed from run `from` to run `to` (pure; the order of the arguments is the direction). */
export function diffRuns(from: DiffInput, to: DiffInput): RunDiff {
  const checks: RunDiff['checks'] = {
    newly_failed: [],
    newly_passed: [],
    newly_inconclusive: [],
    value_changed: [],
  };
  const ids = new Set([...Object.keys(from.results), ...Object.keys(to.results)]);
  for (const id of ids) {
    const a = from.results[id];
    const b = to.results[id];
    const sa = stateOf(a);
    const sb = stateOf(b);
    const shown = (b ?? a)!;
    const entry: CheckChange = {
      id,
      title: shown.title,
      category: shown.category,
      priority: shown.priority,
      from: sa,
      to: sb,
      ...(a && a.value !== undefined ? { from_value: a.value } : {}),
      ...(b && b.value !== undefined ? { to_value: b.value } : {}),
      message: shown.message,
    };
    if (sa !== sb) {
      if (sb === 'failed') checks.newly_failed.push(entry);
      else if (sb === 'passed') checks.newly_passed.push(entry);
      else if (sb === 'inconclusive') checks.newly_inconclusive.push(entry);
      // a check the later run no longer has is not listed (checks are only added by upgrades)
    } else if (sa !== 'absent' && valueChanged(id, a!.value, b!.value)) {
      checks.value_changed.push(entry);
    }
  }
  for (const list of Object.values(checks)) list.sort(byPriority);

  const categories = {} as Record<Category, ScoreChange>;
  for (const c of CATEGORIES)
    categories[c] = change(from.categories[c]?.score ?? 0, to.categories[c]?.score ?? 0);
  const order = RESULT_ORDER[to.result] - RESULT_ORDER[from.result];
  const page = pageChanges(from, to);
  const score = change(from.score, to.score);
  return {
    changed:
      score.delta !== 0 ||
      order !== 0 ||
      CATEGORIES.some((c) => categories[c].delta !== 0) ||
      Object.values(checks).some((l) => l.length > 0) ||
      page.length > 0,
    score,
    result: { from: from.result, to: to.result, change: order > 0 ? 'worse' : order < 0 ? 'better' : 'same' },
    categories,
    checks,
    page,
  };
}

/**
 * The regression rule of alerts (the `report.regressed` webhook, the report page's warning):
 * the result band dropped, or a high-priority check newly failed. A check the earlier run did
 * not have (added by an upgrade) is not a regression of the page.
 */
export function isRegression(diff: RunDiff): boolean {
  return (
    diff.result.change === 'worse' ||
    diff.checks.newly_failed.some((c) => c.priority === 'high' && c.from !== 'absent')
  );
}

/**
 * The CLI's `--fail-on-regression` gate: why the run fails it (empty when it passes). A check
 * newly failed (any priority; not one the baseline did not have), or the score dropped by more
 * than `maxDrop` points.
 */
export function regressionReasons(diff: RunDiff, maxDrop: number): string[] {
  const reasons: string[] = [];
  const failed = diff.checks.newly_failed.filter((c) => c.from !== 'absent');
  if (failed.length > 0) {
    reasons.push(
      `${failed.length} check${failed.length === 1 ? '' : 's'} newly failed: ${failed.map((c) => c.id).join(', ')}`,
    );
  }
  const drop = -diff.score.delta;
  if (drop > maxDrop) {
    reasons.push(
      `the score dropped by ${drop} point${drop === 1 ? '' : 's'} (${diff.score.from} → ${diff.score.to}; allowed: ${maxDrop})`,
    );
  }
  return reasons;
}
