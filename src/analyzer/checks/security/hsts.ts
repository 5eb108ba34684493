// Strict-Transport-Security on https pages: present with a long enough max-age.
import type { CheckDefinition } from '../types.js';
import { clip } from '../types.js';

const YEAR = 31_536_000;

export function parseHsts(value: string): {
  maxAge: number | null;
  includeSubDomains: boolean;
  preload: boolean;
} {
  // repeated headers are joined with ", "; browsers use the first one
  const first = value.split(',')[0] ?? '';
  let maxAge: number | null = null;
  let includeSubDomains = false;
  let preload = false;
  for (const raw of first.split(';')) {
    const d = raw.trim();
    const eq = d.indexOf('=');
    const name = (eq === -1 ? d : d.slice(0, eq)).trim().toLowerCase();
    if (name === 'max-age' && eq !== -1) {
      const v = d
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
      if (/^\d+$/.test(v)) maxAge = Number(v);
    } else if (name === 'includesubdomains') includeSubDomains = true;
    else if (name === 'preload') preload = true;
  }
  return { maxAge, includeSubDomains, preload };
}

function days(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  return d === 1 ? '1 day' : `${d} days`;
}

const check: CheckDefinition = {
  id: 'hsts',
  category: 'security',
  priority: 'medium',
  title: 'HTTPS is enforced with HSTS',
  failTitle: 'HTTPS is not enforced with a long-lived HSTS header',
  howToFix:
    'Send "Strict-Transport-Security: max-age=31536000; includeSubDomains" on every https response (add "preload" once every subdomain serves https) so browsers never try plain http again.',
  failsWhen:
    'an https page has no Strict-Transport-Security, no valid max-age, or max-age below the minimum. Not applicable over http',
  needsContent: false,
  thresholds: {
    min_max_age: { default: YEAR, description: 'smallest accepted max-age, seconds (one year)' },
  },
  run(a, t) {
    if (a.finalUrlParsed.protocol !== 'https:') return 'not_applicable';
    const min = t.min_max_age ?? YEAR;
    const raw = a.headers['strict-transport-security'];
    if (raw === undefined || raw.trim() === '') {
      return {
        passed: false,
        message:
          'The https page sends no Strict-Transport-Security header: a first visit over http can be intercepted.',
        value: null,
      };
    }
    const { maxAge, includeSubDomains, preload } = parseHsts(raw);
    const flags = [includeSubDomains ? 'includeSubDomains' : '', preload ? 'preload' : '']
      .filter(Boolean)
      .join(', ');
    const flagText = flags ? ` (${flags})` : '';
    if (maxAge === null) {
      return {
        passed: false,
        message: `The Strict-Transport-Security header "${clip(raw, 80)}" has no valid max-age, so browsers ignore it.`,
        value: raw,
      };
    }
    if (maxAge === 0) {
      return {
        passed: false,
        message: 'Strict-Transport-Security has max-age=0, which turns HSTS off.',
        value: raw,
      };
    }
    if (maxAge < min) {
      return {
        passed: false,
        message: `Strict-Transport-Security max-age is ${maxAge} s (${days(maxAge)})${flagText}; at least ${min} s (${days(min)}) is expected.`,
        value: raw,
      };
    }
    return {
      passed: true,
      message: `Strict-Transport-Security max-age is ${maxAge} s (${days(maxAge)})${flagText}.${includeSubDomains ? '' : ' Consider includeSubDomains.'}`,
      value: raw,
    };
  },
};

export default check;
