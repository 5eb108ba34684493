// Scoring is a table of data: priority weights and the good/decent bands.
// score = round(weight of passed checks / weight of judged checks × 100), overall and per
// category. Checks with passed = null are not judged (they count neither way). When nothing
// is judged the score is 0 (and the result "bad"): an audit that could judge nothing has
// shown nothing good about the page.
//
// Categories outside the overall score (SCORING.outsideOverall): AI readiness (`ai`) has its
// own category score but never moves the page's score — blocking AI crawlers is a choice, and
// the scores of reports made before the category existed stay comparable (docs/checks.md).
// Accessibility is judged in rendered audits only; in raw audits it is `not_judged` with the
// reason `needs render=1` (docs/rendering.md).
//
// Caps (SCORING.caps): some failures sink the page whatever else it scores, as Lighthouse's
// crawlability audits sink its SEO category. A page answering 4xx/5xx is capped at the top of
// "bad" (48); a page kept out of search engines by noindex or robots.txt at the top of
// "decent" (79). The score itself is capped, so score and result always agree (sorting and
// filtering by either give the same order), and the capping check's message says so.
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
  /** categories scored on their own that never enter the overall score */
  outsideOverall: ['ai'] satisfies Category[],
  /** a failed check of these ids caps the overall score (the lowest cap that applies wins) */
  caps: [
    {
      check: 'http_status',
      max: 48,
      band: 'bad',
      why: 'a page that does not answer with a success status (4xx, 5xx) comes out bad',
    },
    { check: 'noindex', max: 79, band: 'decent', why: 'a page kept out of search engines is at most decent' },
    { check: 'robots', max: 79, band: 'decent', why: 'a page kept out of search engines is at most decent' },
  ],
} as const;

const OUTSIDE: ReadonlySet<Category> = new Set(SCORING.outsideOverall);

export interface ScoreCap {
  /** the failed check that caps the score */
  check: string;
  /** the highest score allowed */
  max: number;
  /** the score before the cap */
  uncapped: number;
}

/**
 * The cap that applies to these results, if any (the lowest max among failed capping checks,
 * the first in table order on a tie); null when the score is already at or under it.
 */
export function capFor(
  results: readonly Pick<CheckResult, 'id' | 'passed'>[],
  score: number,
): ScoreCap | null {
  let best: (typeof SCORING.caps)[number] | null = null;
  for (const cap of SCORING.caps) {
    if (best !== null && cap.max >= best.max) continue;
    if (results.some((r) => r.id === cap.check && r.passed === false)) best = cap;
  }
  if (best === null || score <= best.max) return null;
  return { check: best.check, max: best.max, uncapped: score };
}

/** The sentence appended to the capping check's message. */
export function capMessage(cap: ScoreCap): string {
  const rule = SCORING.caps.find((c) => c.check === cap.check)!;
  const why = rule.why.charAt(0).toUpperCase() + rule.why.slice(1);
  return `${why}: the score is capped at ${cap.max} (${rule.band}); the checks alone give ${cap.uncapped}.`;
}

export function bandOf(score: number): ResultBand {
  if (score >= SCORING.bands.good) return 'good';
  if (score >= SCORING.bands.decent) return 'decent';
  return 'bad';
}

function ratio(passedWeight: number, judgedWeight: number): number {
  return judgedWeight === 0 ? 0 : Math.round((passedWeight / judgedWeight) * 100);
}

/** Why a category is not judged, when it is not (CategoryScore.not_judged), by category. */
export type NotJudged = Partial<Record<Category, string>>;

/** the reason accessibility is not judged in a raw audit */
export const NEEDS_RENDER = 'needs render=1';

export function scoreResults(
  results: readonly (Pick<CheckResult, 'category' | 'priority' | 'passed'> & { id?: string })[],
  notJudged: NotJudged = {},
): {
  score: number;
  result: ResultBand;
  categories: Record<Category, CategoryScore>;
  /** set when a failed check capped the score (SCORING.caps) */
  cap: ScoreCap | null;
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
    const overall = !OUTSIDE.has(r.category);
    if (overall) judgedW += w;
    if (r.passed) {
      c.passedW += w;
      c.passed++;
      if (overall) passedW += w;
    } else {
      c.failed++;
    }
  }
  const categories = {} as Record<Category, CategoryScore>;
  for (const c of CATEGORIES) {
    const x = acc[c];
    categories[c] = { score: ratio(x.passedW, x.judgedW), passed: x.passed, failed: x.failed };
    const why = notJudged[c];
    if (why !== undefined && x.judgedW === 0) categories[c].not_judged = why;
  }
  const raw = ratio(passedW, judgedW);
  const cap = capFor(
    results.filter((r): r is typeof r & { id: string } => r.id !== undefined),
    raw,
  );
  const score = cap === null ? raw : cap.max;
  return { score, result: bandOf(score), categories, cap };
}
