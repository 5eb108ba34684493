// The benchmark's synthetic but realistic corpus: host names of ~5,000 sites, URLs on them,
// a skewed number of reports per site (a few big sites, a long tail), result bands in
// realistic proportions, and results/page/categories JSON taken from a real audit when the
// analyzer can make one (else synthesized at the same size). Deterministic for a given seed.

/** mulberry32: a small, fast, seedable PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJ = [
  'green',
  'blue',
  'red',
  'quick',
  'bright',
  'silent',
  'happy',
  'urban',
  'little',
  'golden',
  'north',
  'south',
  'modern',
  'classic',
  'smart',
  'wild',
  'fresh',
  'open',
  'clear',
  'royal',
  'prime',
  'cozy',
  'rapid',
  'solid',
  'sunny',
  'alpine',
  'coastal',
  'digital',
  'global',
  'local',
  'simple',
  'noble',
  'swift',
  'lucky',
  'vivid',
  'true',
];
const NOUN = [
  'garden',
  'studio',
  'market',
  'labs',
  'kitchen',
  'travel',
  'design',
  'media',
  'works',
  'store',
  'hub',
  'bakery',
  'clinic',
  'school',
  'press',
  'gallery',
  'outdoors',
  'bikes',
  'books',
  'coffee',
  'fitness',
  'homes',
  'pets',
  'music',
  'photo',
  'tech',
  'games',
  'wines',
  'farm',
  'tools',
  'fashion',
  'finance',
  'legal',
  'health',
  'dental',
  'auto',
];
const TLD = [
  'com',
  'com',
  'com',
  'org',
  'net',
  'io',
  'co.uk',
  'de',
  'fr',
  'nl',
  'ca',
  'com.au',
  'dev',
  'shop',
  'eu',
];
const SECTION = [
  'blog',
  'news',
  'products',
  'docs',
  'help',
  'category',
  'articles',
  'shop',
  'guides',
  'events',
  'team',
  'en',
];
const WORDS = [
  'how',
  'to',
  'best',
  'guide',
  'spring',
  'summer',
  'winter',
  'sale',
  'new',
  'review',
  'tips',
  'for',
  'beginners',
  'pricing',
  'faq',
  'contact',
  'careers',
  'recipes',
  'tomato',
  'herbs',
  'balcony',
  'repair',
  'install',
  'update',
  'release',
  'notes',
  'city',
  'weekend',
  'family',
  'ultimate',
  'checklist',
  'compare',
  'vs',
  'top',
  'ten',
  'ideas',
];

export interface Site {
  /** the host as it appears in URLs (may start with www.) */
  host: string;
  /** the project name: host lower-cased without one leading www. */
  project: string;
}

/** `count` distinct sites. */
export function makeSites(count: number, rand: () => number): Site[] {
  const seen = new Set<string>();
  const sites: Site[] = [];
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)]!;
  while (sites.length < count) {
    let name = `${pick(ADJ)}${pick(NOUN)}`;
    if (rand() < 0.6) name += `-${pick(NOUN)}`;
    if (rand() < 0.3) name += String(Math.floor(rand() * 100));
    const sub = rand();
    const base = `${name}.${pick(TLD)}`;
    const project = sub < 0.1 ? `blog.${base}` : sub < 0.15 ? `shop.${base}` : base;
    if (seen.has(project)) continue;
    seen.add(project);
    sites.push({ host: rand() < 0.5 && sub >= 0.15 ? `www.${project}` : project, project });
  }
  return sites;
}

/** A path on a site: /section/slug[-n][/], sometimes with a query. */
export function makePath(rand: () => number): string {
  const pick = <T>(list: T[]): T => list[Math.floor(rand() * list.length)]!;
  const r = rand();
  if (r < 0.05) return '/';
  const parts = [pick(SECTION)];
  if (rand() < 0.3) parts.push(String(2015 + Math.floor(rand() * 11)));
  const n = 2 + Math.floor(rand() * 4);
  const slug: string[] = [];
  for (let i = 0; i < n; i++) slug.push(pick(WORDS));
  parts.push(slug.join('-') + (rand() < 0.4 ? `-${Math.floor(rand() * 10_000)}` : ''));
  let path = '/' + parts.join('/');
  if (rand() < 0.1) path += '/';
  if (rand() < 0.08) path += `?page=${1 + Math.floor(rand() * 20)}`;
  else if (rand() < 0.05) path += '?utm_source=newsletter&utm_medium=email';
  return path;
}

export type Band = 'good' | 'decent' | 'bad';
export const BANDS: Band[] = ['good', 'decent', 'bad'];

/** A score whose band follows the realistic mix: 30 % good, 45 % decent, 25 % bad. */
export function makeScore(rand: () => number): { score: number; band: Band; rank: 0 | 1 | 2 } {
  const r = rand();
  if (r < 0.3) return { score: 80 + Math.floor(rand() * 21), band: 'good', rank: 0 };
  if (r < 0.75) return { score: 49 + Math.floor(rand() * 31), band: 'decent', rank: 1 };
  return { score: Math.floor(rand() * 49), band: 'bad', rank: 2 };
}

/** The JSON texts stored with a report, one set per band. */
export interface ReportTemplate {
  categories: string;
  results: string;
  page: string;
}

export interface Templates {
  /** where the results came from */
  source: string;
  checks: number;
  /** bytes of the results JSON (the largest part of a row) */
  resultsBytes: number;
  byBand: Record<Band, ReportTemplate>;
}

const LOREM =
  'The page should declare this so that search engines and browsers understand it; see the documentation for the exact rules, the common mistakes and how to check the fix on a staging copy before it goes live.';

/** 50 checks of realistic size (titles, messages, how-to-fix texts, a few lists and tables). */
export function synthesizeTemplates(): Templates {
  const categories = ['seo', 'performance', 'security', 'miscellaneous'] as const;
  const priorities = ['high', 'medium', 'low'] as const;
  const make = (band: Band): ReportTemplate => {
    const failEvery = band === 'good' ? 9 : band === 'decent' ? 4 : 2;
    const results: Record<string, unknown> = {};
    const counts = Object.fromEntries(categories.map((c) => [c, { passed: 0, failed: 0 }]));
    for (let i = 0; i < 50; i++) {
      const id = `check_${String(i).padStart(2, '0')}`;
      const category = categories[i % 4]!;
      const passed = i % failEvery !== 0;
      counts[category]![passed ? 'passed' : 'failed']++;
      const entry: Record<string, unknown> = {
        id,
        category,
        priority: priorities[i % 3],
        passed,
        title: passed
          ? `The page has a well-formed ${id.replace('_', ' ')}`
          : `The page lacks a valid ${id.replace('_', ' ')}`,
        message: passed
          ? `Found what was expected for ${id}: 1 element, within the recommended length.`
          : `Expected ${id} to be present and valid; found 3 problems on this page that need attention.`,
        how_to_fix: LOREM,
      };
      if (i % 5 === 0) {
        entry.details = {
          type: 'table',
          headings: ['URL', 'Status', 'Size'],
          rows: Array.from({ length: 12 }, (_, k) => [
            `https://cdn.example.com/assets/img/photo-${k}.webp`,
            200,
            48_000 + k,
          ]),
        };
      } else if (i % 7 === 0) {
        entry.details = {
          type: 'list',
          items: Array.from({ length: 8 }, (_, k) => `https://example.com/related/page-${k}`),
        };
      }
      if (i % 3 === 0) entry.value = 42 + i;
      results[id] = entry;
    }
    const cats = Object.fromEntries(
      categories.map((c) => {
        const { passed, failed } = counts[c]!;
        return [c, { score: Math.round((100 * passed) / Math.max(1, passed + failed)), passed, failed }];
      }),
    );
    return {
      categories: JSON.stringify(cats),
      results: JSON.stringify(results),
      page: JSON.stringify(samplePage()),
    };
  };
  const byBand = { good: make('good'), decent: make('decent'), bad: make('bad') };
  return {
    source: 'synthesized (50 checks)',
    checks: 50,
    resultsBytes: byBand.decent.results.length,
    byBand,
  };
}

function samplePage(): unknown {
  return {
    status: 200,
    http_version: '1.1',
    redirects: [{ url: 'http://example.com/', status: 301 }],
    timings: { dns_ms: 12, connect_ms: 20, tls_ms: 35, ttfb_ms: 180, total_ms: 420 },
    sizes: { transfer_bytes: 48_213, html_bytes: 162_400 },
    requests: { scripts: 14, stylesheets: 4, images: 38, iframes: 1, media: 0, fonts: 3 },
  };
}

/** A selective search term from a project name: its longest label (`brightgarden-works` of `blog.brightgarden-works.co.uk`). */
export function selectiveTerm(project: string): string {
  return project.split('.').reduce((a, b) => (b.length > a.length ? b : a), '');
}
