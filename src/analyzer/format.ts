// How Pagegrade writes numbers, once for every face of a report (check messages, the CLI, the
// report page, diffs): sizes in decimal units (1 kB = 1,000 bytes, as page_size counts),
// three significant digits, so 1,160,848 bytes is "1.16 MB" everywhere.
import type { CheckValue } from './types.js';

const UNITS = ['kB', 'MB', 'GB', 'TB'] as const;

/** 820 B · 1.5 kB · 330 kB · 1.16 MB · 12.4 MB (decimal units, 3 significant digits, no trailing zeros). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return `${bytes} B`;
  const n = Math.round(bytes);
  if (Math.abs(n) < 1000) return `${n} B`;
  let v = n / 1000;
  let unit = 0;
  // move up a unit when rounding to 3 significant digits reaches 1000 (999,999 B → "1 MB")
  while (unit < UNITS.length - 1 && Math.abs(Number(v.toPrecision(3))) >= 1000) {
    v /= 1000;
    unit++;
  }
  return `${Number(v.toPrecision(3))} ${UNITS[unit]}`;
}

/**
 * 1,234,567 (en thousands separators, at most 3 decimals) — what `toLocaleString('en')` writes,
 * without it: the first Intl call of a process costs ~50 ms (ICU set-up), a third of a CLI audit.
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return n.toLocaleString('en');
  const rounded = Math.round(n * 1000) / 1000;
  const text = Math.abs(rounded).toString();
  if (text.includes('e')) return n.toLocaleString('en');
  const [int = '', frac] = text.split('.');
  const sign = rounded < 0 || Object.is(rounded, -0) ? '-' : '';
  return `${sign}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`;
}

/** 85 ms · 1.25 s */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

/** "1 image" / "22 images" (the count with thousands separators) */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Checks whose numeric value is a size in bytes or a duration in milliseconds. */
const VALUE_UNITS: Readonly<Record<string, 'bytes' | 'ms'>> = { page_size: 'bytes', load_time: 'ms' };

/**
 * A check's value as a person reads it, or null when it says nothing the message does not: a
 * passed check whose value is 0 counts the problems it did not find ("Found: 0").
 */
export function displayCheckValue(
  checkId: string,
  value: CheckValue | undefined,
  passed: boolean | null,
): string | string[] | null | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number') {
    if (passed === true && value === 0) return undefined;
    const unit = VALUE_UNITS[checkId];
    if (unit === 'bytes') return formatBytes(value);
    if (unit === 'ms') return formatMs(value);
    return formatCount(value);
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return value;
}
