// Gives each registered check the artifacts and turns its outcome into a CheckResult.
// Failures stay local: a check that throws reports an error for itself; the audit stands.
import type { Artifacts } from './artifacts/types.js';
import { checks as registry } from './checks/index.js';
import type { CheckDefinition, CheckOutcome, NotApplicable, Thresholds } from './checks/types.js';
import type { CheckResult } from './types.js';

/** The thresholds a check runs with: its defaults, overridden by `<id>.<name>` entries. */
export function thresholdsFor(
  check: CheckDefinition,
  overrides: Partial<Record<string, number>>,
): Thresholds {
  const out: Record<string, number> = {};
  for (const [name, spec] of Object.entries(check.thresholds ?? {})) {
    const o = overrides[`${check.id}.${name}`];
    out[name] = typeof o === 'number' && Number.isFinite(o) ? o : spec.default;
  }
  return out;
}

/** Runs one check; never throws. */
export function runCheck(
  check: CheckDefinition,
  a: Artifacts,
  overrides: Partial<Record<string, number>> = {},
  thresholds: Thresholds = thresholdsFor(check, overrides),
): CheckResult {
  const { id, category, priority, howToFix } = check;
  if (check.needsContent && a.blocked) {
    return {
      id,
      category,
      priority,
      passed: null,
      title: check.failTitle,
      message: `Not judged: the page looks blocked (${a.blocked.reason}), so its content is not the real page.`,
      inconclusive_reason: 'blocked',
      how_to_fix: howToFix,
    };
  }
  let outcome: CheckOutcome | NotApplicable;
  try {
    outcome = check.run(a, thresholds);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      id,
      category,
      priority,
      passed: null,
      title: check.failTitle,
      message: `The check failed to run (${why.slice(0, 200)}).`,
      inconclusive_reason: 'error',
      how_to_fix: howToFix,
    };
  }
  if (outcome === 'not_applicable') {
    return {
      id,
      category,
      priority,
      passed: null,
      title: check.title,
      message: 'Not applicable to this page.',
      inconclusive_reason: 'not_applicable',
      how_to_fix: howToFix,
    };
  }
  // keys in a stable order: id, category, priority, passed, title, message, value, details, inconclusive_reason, how_to_fix
  const result: CheckResult = {
    id,
    category,
    priority,
    passed: outcome.passed,
    title: outcome.passed === true ? check.title : check.failTitle,
    message: outcome.message,
  } as CheckResult;
  if (outcome.value !== undefined) result.value = outcome.value;
  if (outcome.details !== undefined) result.details = outcome.details;
  if (outcome.passed === null) result.inconclusive_reason = 'no_data';
  result.how_to_fix = howToFix;
  return result;
}

/** Runs every registered check (or the given list), keyed by id in registry order. */
export function runChecks(
  a: Artifacts,
  overrides: Partial<Record<string, number>> = {},
  list: readonly CheckDefinition[] = registry,
): Record<string, CheckResult> {
  const out: Record<string, CheckResult> = {};
  const noOverrides = Object.keys(overrides).length === 0;
  for (const check of list) {
    const t = noOverrides ? defaultThresholds(check) : thresholdsFor(check, overrides);
    out[check.id] = runCheck(check, a, overrides, t);
  }
  return out;
}

const defaults = new WeakMap<CheckDefinition, Thresholds>();
function defaultThresholds(check: CheckDefinition): Thresholds {
  let t = defaults.get(check);
  if (t === undefined) {
    t = Object.freeze(thresholdsFor(check, {}));
    defaults.set(check, t);
  }
  return t;
}
