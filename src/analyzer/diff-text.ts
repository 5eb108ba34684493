// The words of a diff (src/analyzer/diff.ts), written once for the report page and the CLI:
// page-fact labels, values as a person reads them (kB, ms, redirects), check values, signed
// deltas. Plain text: the page escapes it, the CLI prints it through safeText.
import { displayCheckValue, formatBytes, formatMs } from './format.js';
import type { CheckValue } from './types.js';
import type { CheckState, PageFactValue } from './diff.js';

const FACT_LABELS: Record<string, string> = {
  final_url: 'Final URL',
  status: 'Status',
  http_version: 'HTTP version',
  redirects: 'Redirects',
  'sizes.transfer_bytes': 'Transferred',
  'sizes.html_bytes': 'HTML size',
  'timings.dns_ms': 'DNS lookup',
  'timings.connect_ms': 'Connection',
  'timings.tls_ms': 'TLS handshake',
  'timings.ttfb_ms': 'First byte',
  'timings.total_ms': 'Load time',
};

/** "HTML size", "Requests: images" … */
export function factLabel(fact: string): string {
  if (fact.startsWith('requests.')) return `Requests: ${fact.slice('requests.'.length)}`;
  return FACT_LABELS[fact] ?? fact;
}

/** A page fact's value as read: sizes in kB, timings in ms, a redirect chain by its hops. */
function formatFact(fact: string, v: PageFactValue): string {
  if (v === null) return 'none';
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.map((r) => `${r.status} ${r.url}`).join(' → ');
  if (typeof v === 'number') {
    if (fact.startsWith('sizes.')) return formatBytes(v);
    if (fact.startsWith('timings.')) return formatMs(v);
    return String(v);
  }
  return v;
}

/** Both sides of a page fact's change; exact bytes when the rounded sizes would read the same. */
export function formatFactChange(fact: string, from: PageFactValue, to: PageFactValue): [string, string] {
  const a = formatFact(fact, from);
  const b = formatFact(fact, to);
  if (a === b && typeof from === 'number' && typeof to === 'number' && fact.startsWith('sizes.'))
    return [`${from.toLocaleString('en')} B`, `${to.toLocaleString('en')} B`];
  return [a, b];
}

const clip = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/**
 * A check's value as read: a string quoted (and clipped), a list by its first items, null "none",
 * a number with its unit when the check has one (page_size "1.16 MB", load_time "2.40 s").
 */
export function formatCheckValue(v: CheckValue | undefined, max = 80, checkId = ''): string {
  if (v === undefined || v === null || v === '') return 'none';
  if (Array.isArray(v)) {
    if (v.length === 0) return 'none';
    const shown = v.slice(0, 5).map((x) => clip(x, 40));
    return `${shown.join(', ')}${v.length > 5 ? ` … (${v.length} in all)` : ''}`;
  }
  if (typeof v === 'string') return `“${clip(v, max)}”`;
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  return displayCheckValue(checkId, v, false) as string;
}

/** A check state as a word. */
export const STATE_WORDS: Readonly<Record<CheckState, string>> = {
  passed: 'passed',
  failed: 'failed',
  inconclusive: 'not judged',
  absent: 'not checked',
};

/** +3 · −5 · ±0 */
export function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '±0';
}
