// Gives each registered check the artifacts and turns its outcome into a CheckResult.
// Failures stay local: a check that throws reports an error for itself; the audit stands.
import type { Artifacts } from './artifacts/types.js';
import { checks as registry } from './checks/index.js';
import type { CheckDefinition, Thresholds } from './checks/types.js';
import type { CheckResult } from './types.js';

/** The thresholds a check runs with: its defaults, overridden by `<id>.<name>` entries. */
export function thresholdsFor(check: CheckDefinition, overrides: Partial<Record<string, number>>): Thresholds {
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
): CheckResult {
  const base = { id: check.id, category: check.category, priority: check.priority, how_to_fix: check.howToFix };
  if (check.needsContent && a.blocked) {
    return {
      ...base,
      passed: null,
      title: check.failTitle,
      message: `Not judged: the page looks blocked (${a.blocked.reason}), so its content is not the real page.`,
      inconclusive_reason: 'blocked',
    };
  }
  let outcome;
  try {
    outcome = check.run(a, thresholdsFor(check, overrides));
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      ...base,
      passed: null,
      title: check.failTitle,
      message: `The check failed to run (${why.slice(0, 200)}).`,
      inconclusive_reason: 'error',
    };
  }
  if (outcome === 'not_applicable') {
    return {
      ...base,
      passed: null,
      title: check.title,
      message: 'Not applicable to this page.',
      inconclusive_reason: 'not_applicable',
    };
  }
  const result: CheckResult = {
    ...base,
    passed: outcome.passed,
    title: outcome.passed === true ? check.title : check.failTitle,
    message: outcome.message,
  };
  if (outcome.value !== undefined) result.value = outcome.value;
  if (outcome.details !== undefined) result.details = outcome.details;
  if (outcome.passed === null) result.inconclusive_reason = 'no_data';
  // keep key order stable: how_to_fix last
  const { how_to_fix, ...rest } = result;
  return { ...rest, how_to_fix };
}

/** Runs every registered check (or the given list), keyed by id in registry order. */
export function runChecks(
  a: Artifacts,
  overrides: Partial<Record<string, number>> = {},
  list: readonly CheckDefinition[] = registry,
): Record<string, CheckResult> {
  const out: Record<string, CheckResult> = {};
  for (const check of list) out[check.id] = runCheck(check, a, overrides);
  return out;
}
