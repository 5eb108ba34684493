// What a check is: metadata plus a pure function of the artifacts. One file per check under
// checks/<category>/<id>.ts, its test beside it, one line in checks/index.ts.
import type { Artifacts } from '../artifacts/types.js';
import type { Category, CheckValue, Details, Priority } from '../types.js';

export type { Artifacts } from '../artifacts/types.js';

/** A check's thresholds after defaults and overrides are merged (name → number). */
export type Thresholds = Readonly<Record<string, number>>;

/** A threshold a check reads: its default and what it means (shown in docs/checks.md). */
export interface ThresholdSpec {
  default: number;
  description: string;
}

/** What `run` returns when the check judged the page. `passed: null` = could not judge (no data). */
export interface CheckOutcome {
  passed: boolean | null;
  /** specific, e.g. "The title is 72 characters long; keep it between 1 and 60." */
  message: string;
  value?: CheckValue;
  details?: Details;
}

export const NOT_APPLICABLE = 'not_applicable' as const;
export type NotApplicable = typeof NOT_APPLICABLE;

export interface CheckDefinition {
  /** equal to the file name without .ts */
  id: string;
  /** equal to the folder name */
  category: Category;
  priority: Priority;
  /** title when passed, e.g. "The page has a title" */
  title: string;
  /** title when failed or not judged, e.g. "The title is missing or the wrong length" */
  failTitle: string;
  /** how to fix it, one or two sentences (plain text) */
  howToFix: string;
  /**
   * When the check fails, precisely (Markdown, one line): the "fails when" column of the
   * generated check table in docs/checks.md (`npm run docs`).
   */
  failsWhen: string;
  /** true when the check judges the page's content: a blocked page (bot challenge, 403…) makes it inconclusive */
  needsContent: boolean;
  /**
   * Configurable thresholds with their defaults. Overrides come from AnalyzeOptions.thresholds
   * keyed `<check id>.<name>` (e.g. `title.max_length`); `run` receives them by `<name>`.
   */
  thresholds?: Readonly<Record<string, ThresholdSpec>>;
  /**
   * The value is a duration measured on this run (milliseconds), not a property of the page: it
   * varies from run to run, so a history diff (src/analyzer/diff.ts) reports its change only
   * past the timing noise floor.
   */
  measuredMs?: true;
  run(a: Artifacts, t: Thresholds): CheckOutcome | NotApplicable;
}

/** Caps a list for details: at most `max` items plus the count left out. */
export function listDetails(items: string[], max = 50): Details {
  if (items.length <= max) return { type: 'list', items };
  return { type: 'list', items: items.slice(0, max), truncated: items.length - max };
}

/** Caps table rows for details. */
export function tableDetails(
  headings: string[],
  rows: (string | number | boolean | null)[][],
  max = 50,
): Details {
  if (rows.length <= max) return { type: 'table', headings, rows };
  return { type: 'table', headings, rows: rows.slice(0, max), truncated: rows.length - max };
}

/** Shortens a string for messages and details ("…" when cut). */
export function clip(s: string, max = 120): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** the singular or plural form for a count: agree(1, 'is', 'are') → "is" */
export function agree(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** "1 image" / "3 images" */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
