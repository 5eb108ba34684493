// Renders an AuditReport for a terminal: result and score, categories, failed checks first
// (with how to fix), then inconclusive and passed ones. Colours only when asked (TTY).
import {
  CATEGORIES,
  PRIORITIES,
  type AuditReport,
  type Category,
  type CheckResult,
  type Details,
} from '../analyzer/types.js';
import { formatBytes } from '../analyzer/format.js';
import { BAND_COLOURS, bandOf, CATEGORY_NAMES, SCORING } from '../analyzer/vocabulary.js';

export interface RenderOptions {
  color: boolean;
  /** terminal width used for wrapping; default 100 */
  width?: number;
}

const CODES = {
  reset: '\x1b[0m',
  bold: '\x1b[1m',
  dim: '\x1b[2m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  cyan: '\x1b[36m',
} as const;

/** A terminal style (render-diff.ts uses the same ones). */
export type Style = Exclude<keyof typeof CODES, 'reset'>;

/** Styles text for a terminal when `color`, else leaves it plain. */
export function styler(color: boolean): (style: Style, s: string) => string {
  return (style, s) => (color ? `${CODES[style]}${s}${CODES.reset}` : s);
}

/**
 * Text from the audited page (headings, link text, attribute values…) may hold control
 * characters: written raw, an ESC would drive the terminal (clear it, set its title, forge
 * colours). They are shown escaped instead (`\x1b`).
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
export function safeText(text: string): string {
  return text.replace(CONTROL, (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function wrap(text: string, width: number, indent: string): string {
  const words = text.split(/\s+/).filter(Boolean).map(safeText);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && indent.length + line.length + 1 + w.length > width) {
      lines.push(indent + line);
      line = w;
    } else {
      line = line ? `${line} ${w}` : w;
    }
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

function detailLines(details: Details, max = 8): string[] {
  switch (details.type) {
    case 'text':
      return [safeText(details.text)];
    case 'list': {
      const more = details.items.length - max + (details.truncated ?? 0);
      const out = details.items.slice(0, max).map(safeText);
      if (more > 0) out.push(`… and ${more} more`);
      return out;
    }
    case 'table': {
      const more = details.rows.length - max + (details.truncated ?? 0);
      const out = details.rows
        .slice(0, max)
        .map((r) =>
          r
            .map((c, i) =>
              safeText(
                `${details.headings[i] ? `${details.headings[i]}: ` : ''}${c === null ? '–' : String(c)}`,
              ),
            )
            .join(' · '),
        );
      if (more > 0) out.push(`… and ${more} more`);
      return out;
    }
  }
}

export function renderReport(report: AuditReport, opts: RenderOptions): string {
  const width = Math.max(60, Math.min(opts.width ?? 100, 120));
  const c = styler(opts.color);
  const bandStyle: Style = BAND_COLOURS[report.result];
  const out: string[] = [];

  out.push(c('bold', `Pagegrade report for ${safeText(report.url)}`));
  if (report.final_url !== report.url) out.push(`Final URL: ${safeText(report.final_url)}`);
  out.push(
    `Status ${report.page.status} · HTTP/${report.page.http_version} · ${report.page.timings.total_ms} ms · ` +
      `${formatBytes(report.page.sizes.html_bytes)} HTML`,
  );
  out.push('');
  out.push(
    `${c('bold', 'Result:')} ${c(bandStyle, c('bold', report.result.toUpperCase()))}  ` +
      `${c('bold', 'Score:')} ${c(bandStyle, `${report.score}/100`)}`,
  );
  out.push('');
  for (const cat of CATEGORIES) {
    const s = report.categories[cat] as AuditReport['categories'][Category] | undefined;
    if (s === undefined) continue; // a report stored before the category existed
    if (s.not_judged !== undefined) {
      out.push(`  ${CATEGORY_NAMES[cat].padEnd(14)} ${c('dim', `  -  not judged: ${s.not_judged}`)}`);
      continue;
    }
    const style: Style = BAND_COLOURS[bandOf(s.score)];
    const outside = (SCORING.outsideOverall as readonly Category[]).includes(cat)
      ? ' (not in the score)'
      : '';
    out.push(
      `  ${CATEGORY_NAMES[cat].padEnd(14)} ${c(style, String(s.score).padStart(3))}  ` +
        c('dim', `${s.passed} passed, ${s.failed} failed${outside}`),
    );
  }

  const all = Object.values(report.results);
  const byPriority = (a: CheckResult, b: CheckResult) =>
    PRIORITIES.indexOf(a.priority) - PRIORITIES.indexOf(b.priority);
  const failed = all.filter((r) => r.passed === false).sort(byPriority);
  const unjudged = all.filter((r) => r.passed === null);
  const passed = all.filter((r) => r.passed === true);

  out.push('');
  out.push(c('bold', `Failed checks (${failed.length})`));
  if (failed.length === 0) out.push('  none');
  for (const r of failed) {
    out.push(
      `  ${c('red', '✗')} ${c('bold', safeText(r.title))} ${c('dim', `[${r.priority}, ${CATEGORY_NAMES[r.category]}, ${r.id}]`)}`,
    );
    out.push(wrap(r.message, width, '      '));
    if (r.details)
      for (const l of detailLines(r.details)) out.push(c('dim', `      - ${l.slice(0, width - 8)}`));
    out.push(wrap(`Fix: ${r.how_to_fix}`, width, '      '));
  }

  if (unjudged.length) {
    out.push('');
    out.push(c('bold', `Not judged (${unjudged.length})`));
    for (const r of unjudged) {
      out.push(`  ${c('yellow', '?')} ${safeText(r.title)} ${c('dim', `[${r.id}]`)}`);
      out.push(wrap(r.message, width, '      '));
    }
  }

  out.push('');
  out.push(c('bold', `Passed checks (${passed.length})`));
  for (const r of passed) out.push(`  ${c('green', '✓')} ${safeText(r.title)} ${c('dim', `[${r.id}]`)}`);
  out.push('');
  return out.join('\n');
}
