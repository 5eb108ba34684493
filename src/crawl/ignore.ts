// A project's ignore rules (docs/sites.md, "Issue states and ignore rules"), the pure part:
// which pages a rule's url_pattern covers, a page's audit with the checks a rule ignores made
// "not judged" (and its score computed again without them), and a batch's site findings with
// the pages a rule covers listed apart. The services read the rules and call these.
import { capMessage, scoreResults } from '../analyzer/scoring.js';
import type { AuditReport, CheckResult } from '../analyzer/types.js';
import type { Finding, FindingPage } from './findings/types.js';

/** A rule as stored in the project's settings (`ignore`). */
export interface IgnoreRule {
  /** the server's id of the rule (DELETE …/ignore-rules/{rule_id}) */
  rule_id: string;
  /** a check id or a site finding id */
  id: string;
  /** '' (every page), a path glob (`/blog/*`) or a whole-URL glob (`https://example.com/blog/*`) */
  url_pattern: string;
  reason: string;
  /** ISO date-time; null: never expires */
  expires_at: string | null;
}

/** A page of a finding that a rule ignores. */
export type IgnoredFindingPage = FindingPage & { rule_id: string; reason: string };

/** A failed check that a rule made "not judged" on a page (the issue states count it as ignored). */
export interface IgnoredCheck {
  id: string;
  priority: CheckResult['priority'];
  title: string;
  rule_id: string;
  reason: string;
}

const MAX_PATTERN = 512;

/**
 * Why `pattern` is no url_pattern, or null when it is one: empty, a path starting with `/`, or
 * an absolute http(s) URL; `*` stands for any run of characters (slashes included), anything
 * else is literal; no spaces or control characters (a URL has none).
 */
export function globError(pattern: string): string | null {
  if (pattern === '') return null;
  if (pattern.length > MAX_PATTERN) return `at most ${MAX_PATTERN} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f]/.test(pattern)) return 'no spaces or control characters';
  if (!pattern.startsWith('/') && !/^https?:\/\//i.test(pattern))
    return 'a path starting with / (e.g. /blog/*), an absolute http(s) URL, or empty for every page';
  return null;
}

const compiled = new Map<string, RegExp>();
/** the pattern as a regular expression over the whole string (compiled once a process) */
function regexOf(pattern: string): RegExp {
  let r = compiled.get(pattern);
  if (!r) {
    const body = pattern
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    r = new RegExp(`^${body}$`, /^https?:/i.test(pattern) ? 'i' : '');
    if (compiled.size > 1_000) compiled.clear();
    compiled.set(pattern, r);
  }
  return r;
}

/** True when the rule's url_pattern covers `url` (a path pattern: its path and query). */
export function patternCovers(pattern: string, url: string): boolean {
  if (pattern === '') return true;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (pattern.startsWith('/')) return regexOf(pattern).test(`${u.pathname}${u.search}`);
  u.hash = '';
  return regexOf(pattern).test(u.href);
}

/** The rules that still apply at `now` (an expired rule applies no more). */
export function activeRules(rules: readonly IgnoreRule[], now: Date): IgnoreRule[] {
  const t = now.getTime();
  return rules.filter((r) => r.expires_at === null || Date.parse(r.expires_at) > t);
}

/** The first rule for `id` that covers `url`, or undefined. */
export function ruleFor(rules: readonly IgnoreRule[], id: string, url: string): IgnoreRule | undefined {
  return rules.find((r) => r.id === id && patternCovers(r.url_pattern, url));
}

/** The message of a check a rule ignores. */
export const ignoredMessage = (reason: string): string => `ignored by rule: ${reason}`;

/**
 * The audit with the checks that `rules` (active ones) ignore on its page reported as not
 * judged (`passed: null`, inconclusive_reason `ignored`), and its score, result and categories
 * computed again as for any check not judged (a cap stands only when its check is judged).
 * `ignored`: the checks that had failed (the issue states' `ignored`).
 */
export function ignoreChecks(
  report: AuditReport,
  rules: readonly IgnoreRule[],
): { report: AuditReport; ignored: IgnoredCheck[] } {
  if (rules.length === 0) return { report, ignored: [] };
  const results: Record<string, CheckResult> = { ...report.results };
  const ignored: IgnoredCheck[] = [];
  let changed = false;
  for (const r of Object.values(report.results)) {
    const rule = ruleFor(rules, r.id, report.url);
    if (!rule) continue;
    changed = true;
    if (r.passed === false)
      ignored.push({
        id: r.id,
        priority: r.priority,
        title: r.title,
        rule_id: rule.rule_id,
        reason: rule.reason,
      });
    results[r.id] = {
      ...r,
      passed: null,
      message: ignoredMessage(rule.reason),
      inconclusive_reason: 'ignored',
    };
  }
  if (!changed) return { report, ignored };
  // the capping check's message told the cap of the results before: told again from the new ones
  const before = scoreResults(Object.values(report.results)).cap;
  if (before !== null && results[before.check]?.inconclusive_reason !== 'ignored') {
    const c = results[before.check]!;
    const tail = ` ${capMessage(before)}`;
    if (c.message.endsWith(tail)) results[before.check] = { ...c, message: c.message.slice(0, -tail.length) };
  }
  const { score, result, categories, cap } = scoreResults(Object.values(results));
  if (cap !== null) {
    const c = results[cap.check]!;
    results[cap.check] = { ...c, message: `${c.message} ${capMessage(cap)}` };
  }
  return { report: { ...report, results, score, result, categories }, ignored };
}

/**
 * The findings with the pages a rule covers moved to `ignored` (with the rule's id and reason):
 * `count` and `pages` are what is left, so the site's counts leave them out.
 */
export function ignoreFindings(findings: readonly Finding[], rules: readonly IgnoreRule[]): Finding[] {
  return findings.map((f) => {
    const mine = rules.filter((r) => r.id === f.id);
    if (mine.length === 0) return f;
    const pages: FindingPage[] = [];
    const ignored: IgnoredFindingPage[] = [];
    for (const p of f.pages) {
      const rule = ruleFor(mine, f.id, p.url);
      if (rule) ignored.push({ ...p, rule_id: rule.rule_id, reason: rule.reason });
      else pages.push(p);
    }
    if (ignored.length === 0) return f;
    return { ...f, count: new Set(pages.map((p) => p.url)).size, pages, ignored };
  });
}
