// Renders a diff (src/analyzer/diff.ts) for a terminal: score and result, categories that
// moved, checks newly failed / passed / not judged, values that changed, page facts; then the
// regression gate's verdict when one was asked for. Colours only when asked (TTY).
import { CATEGORIES } from '../analyzer/types.js';
import { CATEGORY_NAMES } from '../analyzer/vocabulary.js';
import type { CheckChange, RunDiff } from '../analyzer/diff.js';
import { factLabel, formatCheckValue, formatFactChange, signed, STATE_WORDS } from '../analyzer/diff-text.js';
import { safeText, styler, type Style } from './render-report.js';

export interface RenderDiffOptions {
  color: boolean;
  /** what the later run is compared with, e.g. `the baseline (report.json, 2026-11-20 10:00 UTC)` */
  against: string;
  /** the --fail-on-regression verdict: null when not asked; else the reasons it fails (empty: passes) */
  gate: string[] | null;
}

const LISTS = [
  ['newly_failed', 'Newly failed', '✗', 'red'],
  ['newly_passed', 'Newly passed', '✓', 'green'],
  ['newly_inconclusive', 'No longer judged', '?', 'yellow'],
  ['value_changed', 'Values changed', '~', 'dim'],
] as const;

export function renderDiff(d: RunDiff, opts: RenderDiffOptions): string {
  const c = styler(opts.color);
  const out: string[] = ['', c('bold', `Changes since ${safeText(opts.against)}`)];
  if (!d.changed) {
    out.push('  No changes.');
  } else {
    const scoreStyle: Style = d.score.delta < 0 ? 'red' : d.score.delta > 0 ? 'green' : 'dim';
    const result =
      d.result.change === 'same' ? d.result.to : `${d.result.from} → ${d.result.to} (${d.result.change})`;
    out.push(
      `  Score: ${d.score.from} → ${d.score.to} ${c(scoreStyle, `(${signed(d.score.delta)})`)}   Result: ${result}`,
    );
    const moved = CATEGORIES.filter((k) => d.categories[k].delta !== 0).map(
      (k) =>
        `${CATEGORY_NAMES[k]} ${d.categories[k].from} → ${d.categories[k].to} (${signed(d.categories[k].delta)})`,
    );
    if (moved.length) out.push(`  Categories: ${moved.join(' · ')}`);
    for (const [key, label, mark, style] of LISTS) {
      const list = d.checks[key];
      if (list.length === 0) continue;
      out.push(c('bold', `  ${label} (${list.length})`));
      for (const x of list) out.push(`    ${c(style, mark)} ${line(x, key === 'value_changed', c)}`);
    }
    if (d.page.length) {
      out.push(c('bold', '  Page'));
      for (const p of d.page)
        out.push(`    ${factLabel(p.fact)}: ${safeText(formatFactChange(p.fact, p.from, p.to).join(' → '))}`);
    }
  }
  if (opts.gate) {
    out.push('');
    out.push(
      opts.gate.length === 0
        ? `${c('green', 'Regression gate: passed')}`
        : `${c('red', c('bold', 'Regression gate: failed'))} — ${opts.gate.join('; ')}`,
    );
  }
  out.push('');
  return out.join('\n');
}

function line(x: CheckChange, valueOnly: boolean, c: (s: Style, t: string) => string): string {
  const was = valueOnly ? '' : c('dim', ` (was ${STATE_WORDS[x.from]})`);
  const values =
    x.from_value === undefined && x.to_value === undefined
      ? ''
      : `  ${formatCheckValue(x.from_value, 80, x.id)} → ${formatCheckValue(x.to_value, 80, x.id)}`;
  return `${safeText(x.title)} ${c('dim', `[${x.priority}, ${x.id}]`)}${was}${safeText(values)}`;
}
