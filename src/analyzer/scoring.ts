// Scoring is a table of data: priority weights and the good/decent bands.
// score = round(weight of passed checks / weight of judged checks × 100), overall and per
// category. Checks with passed = null are not judged (they count neither way). When nothing
// is judged the score is 0 (and the result "bad"): an audit that could judge nothing has
// shown nothing good about the page.
import {
  CATEGORIES,
  type Category,
  type CategoryScore,
  type CheckResult,
  type Priority,
  type ResultBand,
} from './types.js';

export const SCORING = {
  weights: { high: 10, medium: 5, low: 1 } satisfies Record<Priority, number>,
  /** result = good when score ≥ good, decent when score ≥ decent, bad otherwise */
  bands: { good: 80, decent: 49 },
} as const;

export function bandOf(score: number): ResultBand {
  if (score >= SCORING.bands.good) return 'good';
  if (score >= SCORING.bands.decent) return 'decent';
  return 'bad';
}

function ratio(passedWeight: number, judgedWeight: number): number {
  return judgedWeight === 0 ? 0 : Math.round((passedWeight / judgedWeight) * 100);
}

export function scoreResults(results: readonly Pick<CheckResult, 'category' | 'priority' | 'passed'>[]): {
  score: number;
  result: ResultBand;
  categories: Record<Category, CategoryScore>;
} {
  const acc = {} as Record<Category, { passedW: number; judgedW: number; passed: number; failed: number }>;
  for (const c of CATEGORIES) acc[c] = { passedW: 0, judgedW: 0, passed: 0, failed: 0 };
  let passedW = 0;
  let judgedW = 0;
  for (const r of results) {
    if (r.passed === null) continue;
    const w = SCORING.weights[r.priority];
    const c = acc[r.category];
    c.judgedW += w;
    judgedW += w;
    if (r.passed) {
      c.passedW += w;
      c.passed++;
      passedW += w;
    } else {
      c.failed++;
    }
  }
  const categories = {} as Record<Category, CategoryScore>;
  for (const c of CATEGORIES) {
    const x = acc[c];
    categories[c] = { score: ratio(x.passedW, x.judgedW), passed: x.passed, failed: x.failed };
  }
  const score = ratio(passedW, judgedW);
  return { score, result: bandOf(score), categories };
}
