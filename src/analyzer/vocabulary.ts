// The report vocabulary: the words and colours every face of a report uses (the report page,
// the dashboard, the CLI, the generated docs). Change a label or a band colour here, once.
// The band thresholds themselves are the scoring table (scoring.ts); bandOf is re-exported so
// that renderers need only this module.
import type { Category, Priority, ResultBand } from './types.js';

export { bandOf, SCORING } from './scoring.js';

/** A category's display name. */
export const CATEGORY_NAMES: Readonly<Record<Category, string>> = {
  seo: 'SEO',
  performance: 'Performance',
  security: 'Security',
  miscellaneous: 'Miscellaneous',
  accessibility: 'Accessibility',
  ai: 'AI readiness',
};

/** One sentence on what a category measures. */
export const CATEGORY_BLURBS: Readonly<Record<Category, string>> = {
  seo: 'How well search engines can find, read and present the page.',
  performance: 'How fast and light the page is to load.',
  security: 'How well the page protects its visitors.',
  miscellaneous: 'Best practices that make a page work well everywhere.',
  accessibility:
    'How well people using assistive technology can use the page (axe-core in a browser: rendered audits only).',
  ai: 'How AI crawlers and agents may read the site (llms.txt, robots.txt rules, noai): reported, never part of the overall score.',
};

/** A result band's display name. */
export const RESULT_LABELS: Readonly<Record<ResultBand, string>> = {
  good: 'Good',
  decent: 'Decent',
  bad: 'Bad',
};

/** A priority's display name. */
export const PRIORITY_LABELS: Readonly<Record<Priority, string>> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

/** A band's colour (terminal colour name; the pages' CSS uses the same names via `band-<result>`). */
export const BAND_COLOURS: Readonly<Record<ResultBand, 'green' | 'yellow' | 'red'>> = {
  good: 'green',
  decent: 'yellow',
  bad: 'red',
};

/** Privacy levels by their stored number (0 public, 1 private, 2 password). */
export const PRIVACY_LABELS = ['Public', 'Private', 'Password'] as const;
