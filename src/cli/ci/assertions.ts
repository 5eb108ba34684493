// `pagegrade ci`'s assertions (docs/ci.md): the figures it can budget, the presets, the rules
// that apply to one URL (preset ← budgets ← assertions ← the assertMatrix entries whose glob
// matches it), and what each rule says about one page's report or one crawl's findings.
// Pure: the runner (runner.ts) feeds it reports; the reporters print its outcomes.
import { minimatch } from 'minimatch';
import { CATEGORIES, type AuditReport, type Priority, type ResultBand } from '../../analyzer/types.js';
import { SCORING } from '../../analyzer/scoring.js';
import type { Level, Preset } from './schema.js';

/** An assertion read from the file: its level and the bounds it sets (figures, scores, counts). */
export interface Rule {
  kind: RuleKind;
  level: Level;
  min?: number;
  max?: number;
}

export type RuleKind = 'check' | 'category' | 'figure' | 'finding';

/** What one assertion said about one URL (or about the crawl, for a site finding). */
export interface Outcome {
  /** the id as written in the config: `image_keywords`, `categories.seo`, `page_bytes`, `broken_links` */
  id: string;
  kind: RuleKind;
  level: Exclude<Level, 'off'>;
  /** true held, false failed, null not judged (a check not judged, a figure not measured) */
  passed: boolean | null;
  /** the check's or finding's title; a figure's description */
  title: string;
  /** the measured value (a figure, a score, a finding's page count) */
  actual: number | null;
  /** the bound, in words: `≤ 500000`, `≥ 90`, `passes` */
  expected: string;
  /** one sentence: what was seen */
  message: string;
  /** how to fix it (failed checks) */
  help?: string;
}

export interface Figure {
  id: string;
  unit: 'bytes' | 'ms' | 'count' | 'points' | 'score';
  /** the figure in words (docs/ci.md) */
  what: string;
  /** measured only in rendered runs (`render: true`) */
  rendered?: boolean;
  read(r: AuditReport): number | null;
}

const RESOURCE_KINDS = ['scripts', 'stylesheets', 'images', 'iframes', 'media', 'fonts', 'other'] as const;

const rendered = (r: AuditReport) => r.render?.status === 'completed';
const labValue = (r: AuditReport, id: string): number | null => {
  const v = r.results[id]?.value;
  return rendered(r) && typeof v === 'number' ? v : null;
};

/** The figures an assertion or a budget may name: what the report already measures. */
export const FIGURES: readonly Figure[] = [
  { id: 'score', unit: 'points', what: 'the page score (0–100)', read: (r) => r.score },
  {
    id: 'page_bytes',
    unit: 'bytes',
    what: 'bytes received: every response of a rendered run; the HTML document on the wire otherwise',
    read: (r) => (rendered(r) ? r.render!.bytes : r.page.sizes.transfer_bytes),
  },
  {
    id: 'html_size',
    unit: 'bytes',
    what: 'the HTML document, decoded',
    read: (r) => r.page.sizes.html_bytes,
  },
  {
    id: 'requests',
    unit: 'count',
    what: 'requests the browser made in a rendered run; the subresources the HTML references otherwise',
    read: (r) =>
      rendered(r)
        ? r.render!.requests
        : (r.page.requests.total ?? Object.values(r.page.requests).reduce((a, b) => a + b, 0)),
  },
  {
    id: 'first_byte',
    unit: 'ms',
    what: 'time to the first byte of the page',
    read: (r) => r.page.timings.ttfb_ms,
  },
  {
    id: 'load_time_ms',
    unit: 'ms',
    what: 'time to fetch the whole HTML document',
    read: (r) => r.page.timings.total_ms,
  },
  {
    id: 'lcp',
    unit: 'ms',
    rendered: true,
    what: 'largest contentful paint (lab)',
    read: (r) => labValue(r, 'largest_contentful_paint'),
  },
  {
    id: 'cls',
    unit: 'score',
    rendered: true,
    what: 'cumulative layout shift (lab)',
    read: (r) => labValue(r, 'cumulative_layout_shift'),
  },
  {
    id: 'tbt',
    unit: 'ms',
    rendered: true,
    what: 'total blocking time (lab)',
    read: (r) => labValue(r, 'total_blocking_time'),
  },
  ...RESOURCE_KINDS.map((k): Figure => ({
    id: `resources.${k}`,
    unit: 'count',
    what: `${k === 'other' ? 'other subresources' : k} the HTML references`,
    read: (r) => r.page.requests[k] ?? 0,
  })),
];

export const FIGURE_IDS = FIGURES.map((f) => f.id);
export const CATEGORY_IDS = CATEGORIES.map((c) => `categories.${c}`);

/** A preset's level for a check or a site finding of this priority (off: not asserted). */
export function presetLevel(preset: Preset | null, priority: Priority): Level {
  if (preset === 'pagegrade:strict') return 'error';
  if (preset === 'pagegrade:recommended')
    return priority === 'high' ? 'error' : priority === 'medium' ? 'warn' : 'off';
  return 'off';
}

/** An assertMatrix entry: its glob and its rules. */
export interface MatrixEntry {
  pattern: string;
  rules: Map<string, Rule>;
}

/** Does the glob match the URL? `/legacy/**` is matched against the path, anything else against the whole URL. */
export function globMatches(pattern: string, url: string): boolean {
  if (pattern.startsWith('/')) {
    let path: string;
    try {
      path = new URL(url).pathname;
    } catch {
      return false;
    }
    return minimatch(path, pattern, { dot: true });
  }
  return minimatch(url, pattern, { dot: true });
}

/** The rules for one URL: the base (budgets, then assertions), then each matching matrix entry in order. */
export function rulesFor(
  url: string,
  base: Map<string, Rule>,
  matrix: readonly MatrixEntry[],
): Map<string, Rule> {
  const out = new Map(base);
  for (const m of matrix) if (globMatches(m.pattern, url)) for (const [id, r] of m.rules) out.set(id, r);
  return out;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : String(Math.round(n * 1000) / 1000));

function bounds(rule: Rule): string {
  const parts: string[] = [];
  if (rule.min !== undefined) parts.push(`≥ ${fmt(rule.min)}`);
  if (rule.max !== undefined) parts.push(`≤ ${fmt(rule.max)}`);
  return parts.join(' and ');
}

function within(value: number, rule: Rule): boolean {
  return (rule.min === undefined || value >= rule.min) && (rule.max === undefined || value <= rule.max);
}

/**
 * One page's outcomes: its checks (asserted by id, else by the preset from their priority),
 * its category scores, its figures (`figures` are the medians of its runs). Rules at "off"
 * give none.
 */
export function evaluatePage(
  report: AuditReport,
  figures: Record<string, number | null>,
  rules: Map<string, Rule>,
  preset: Preset | null,
): Outcome[] {
  const out: Outcome[] = [];
  for (const r of Object.values(report.results)) {
    const level = rules.get(r.id)?.level ?? presetLevel(preset, r.priority);
    if (level === 'off') continue;
    out.push({
      id: r.id,
      kind: 'check',
      level,
      passed: r.passed,
      title: r.title,
      actual: null,
      expected: 'passes',
      message: r.passed === null ? `not judged: ${r.message}` : r.message,
      ...(r.passed === false ? { help: r.how_to_fix } : {}),
    });
  }
  // checks asserted by id that this report has not (a browser check in a raw run)
  for (const [id, rule] of rules) {
    if (rule.kind !== 'check' || rule.level === 'off' || id in report.results) continue;
    out.push({
      id,
      kind: 'check',
      level: rule.level,
      passed: null,
      title: id,
      actual: null,
      expected: 'passes',
      message: 'not judged in this run (a browser check needs `render: true`)',
    });
  }
  for (const c of CATEGORIES) {
    const id = `categories.${c}`;
    const rule = rules.get(id);
    if (!rule || rule.level === 'off') continue;
    const r: Rule =
      rule.min === undefined && rule.max === undefined ? { ...rule, min: SCORING.bands.decent } : rule;
    const cat = report.categories[c] as (typeof report.categories)[typeof c] | undefined;
    if (cat === undefined || cat.not_judged !== undefined) {
      out.push({
        id,
        kind: 'category',
        level: rule.level,
        passed: null,
        title: `${c} score`,
        actual: null,
        expected: bounds(r),
        message: `not judged: ${cat?.not_judged ?? 'the report has no such category'}`,
      });
      continue;
    }
    const score = cat.score;
    out.push({
      id,
      kind: 'category',
      level: rule.level,
      passed: within(score, r),
      title: `${c} score`,
      actual: score,
      expected: bounds(r),
      message: `The ${c} score is ${score}.`,
    });
  }
  for (const f of FIGURES) {
    const rule = rules.get(f.id);
    if (!rule || rule.level === 'off') continue;
    const value = figures[f.id] ?? null;
    out.push({
      id: f.id,
      kind: 'figure',
      level: rule.level,
      passed: value === null ? null : within(value, rule),
      title: f.what,
      actual: value,
      expected: bounds(rule),
      message:
        value === null
          ? `not measured${f.rendered ? ' (a rendered run measures it: `render: true`)' : ''}`
          : `${f.id} is ${fmt(value)}${f.unit === 'score' || f.unit === 'points' || f.unit === 'count' ? '' : ` ${f.unit}`}.`,
    });
  }
  return out;
}

/** A crawl's site findings, judged once for the whole crawl (the matrix does not apply). */
export function evaluateFindings(
  findings: readonly { id: string; title: string; priority: Priority; count: number }[],
  rules: Map<string, Rule>,
  preset: Preset | null,
): Outcome[] {
  const out: Outcome[] = [];
  for (const f of findings) {
    const rule: Rule = rules.get(f.id) ?? { kind: 'finding', level: presetLevel(preset, f.priority) };
    if (rule.level === 'off') continue;
    const r: Rule = rule.min === undefined && rule.max === undefined ? { ...rule, max: 0 } : rule;
    out.push({
      id: f.id,
      kind: 'finding',
      level: rule.level,
      passed: within(f.count, r),
      title: f.title,
      actual: f.count,
      expected: `${bounds(r)} page(s)`,
      message: f.count === 0 ? 'not found' : `found on ${f.count} page(s)`,
    });
  }
  return out;
}

/** The median of the numbers (null when none); an even count takes the mean of the middle two. */
export function median(values: readonly (number | null)[]): number | null {
  const xs = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 === 1 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
}

/** Each figure's median over a URL's runs. */
export function medianFigures(reports: readonly AuditReport[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const f of FIGURES) out[f.id] = median(reports.map((r) => f.read(r)));
  return out;
}

/** One URL's result: its runs' figures, their medians, and what the assertions said. */
export interface PageResult {
  url: string;
  /** the representative run's (the median load time's) score and band */
  score: number;
  result: ResultBand;
  /** each figure's median over the runs */
  figures: Record<string, number | null>;
  /** each run's figures, in order */
  runs: Record<string, number | null>[];
  outcomes: Outcome[];
}

/** Everything `pagegrade ci` found: what every reporter prints. */
export interface CiResults {
  /** the configuration file read */
  config: string;
  pages: PageResult[];
  /** the crawl's site findings (with `crawl`) */
  site: { url: string; outcomes: Outcome[] } | null;
}

/** Does an error-level assertion fail? (exit 1) */
export const failedErrors = (r: CiResults): Outcome[] =>
  [...r.pages.flatMap((p) => p.outcomes), ...(r.site?.outcomes ?? [])].filter(
    (o) => o.level === 'error' && o.passed === false,
  );
