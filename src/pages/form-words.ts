// The API's field messages in a form's words. The API names its fields and values ("The
// password field is required when privacy is 2."); a person filling in a dashboard form reads
// labels and choices ("Choose a password for a password-protected report."). Each form lists
// its fields here: a label, and what to say for the messages a person can meet. A message no
// rule matches keeps its text with the field name replaced by the label; messages that are
// already written for people (a page that could not be fetched) pass through.
import type { FieldErrors } from '../errors.js';

type Rule = readonly [RegExp, string | ((m: RegExpExecArray) => string)];

export interface FormField {
  /** the label as the form shows it, lower-case inside a sentence ("page address") */
  label: string;
  /** specific messages, tried in order before the generic ones */
  rules?: readonly Rule[];
}

const PASSWORD_RULES: readonly Rule[] = [
  [
    /^The password field is required when privacy is 2\.$/,
    'Choose a password for a password-protected report.',
  ],
  [
    /^The password must not be longer than (\d+) characters\.$/,
    (m) => `The password can be at most ${m[1]} characters.`,
  ],
];
const PRIVACY_RULES: readonly Rule[] = [
  [/^The privacy must be one of/, 'Choose who can see the report: Public, Private or Password.'],
];
const PAGE_URL_RULES: readonly Rule[] = [
  [/^The url field is required\.$/, 'Enter the address of the page to audit.'],
  [
    /^The url must be an http or https URL(?:; did you mean (.+)\?)?\.?$/,
    (m) =>
      `Enter a full web address that starts with http:// or https://${m[1] ? ` — did you mean ${m[1]}?` : '.'}`,
  ],
  [
    /^The url must not be longer than (\d+) characters\.$/,
    (m) => `The address can be at most ${m[1]} characters.`,
  ],
];

/** The report forms: create (dashboard) and the privacy panel of a row. */
export const REPORT_FORM: Record<string, FormField> = {
  url: { label: 'page address', rules: PAGE_URL_RULES },
  privacy: { label: 'privacy', rules: PRIVACY_RULES },
  password: { label: 'password', rules: PASSWORD_RULES },
  // "Rendered audits need Chromium, which …": already written for people
  render: { label: 'render box' },
};

/** The branding form (/dashboard/branding); the logo's messages are already the form's. */
export const BRANDING_FORM: Record<string, FormField> = {
  name: { label: 'name' },
  accent_color: {
    label: 'accent colour',
    rules: [
      [
        /^The accent_color must be a colour/,
        'Enter the accent colour as # and six hexadecimal digits (#rrggbb), such as #1d4ed8.',
      ],
    ],
  },
  contact: { label: 'contact line' },
  prepared_for: { label: '"prepared for" line' },
  logo: { label: 'logo' },
};

export const WEBHOOK_FORM: Record<string, FormField> = {
  url: {
    label: 'endpoint URL',
    rules: [
      [/^The url field is required\.$/, 'Enter the address that should receive the events.'],
      [
        /^The url must be an http or https URL(?:; did you mean (.+)\?)?\.?$/,
        (m) =>
          `Enter a full endpoint address that starts with https:// (or http://)${m[1] ? ` — did you mean ${m[1]}?` : '.'}`,
      ],
    ],
  },
  events: {
    label: 'events',
    rules: [
      [/^The events (field is required|must list at least one)/, 'Choose at least one event to send.'],
      [/^The events must (be a list|list)/, 'Choose the events from the list.'],
    ],
  },
  description: { label: 'description' },
};

export const KEY_FORM: Record<string, FormField> = {
  scope: { label: 'scope', rules: [[/^The scope must be one of/, 'Choose Write or Read.']] },
  projects: {
    label: 'projects',
    rules: [
      [
        /^The projects must be 1 to (\d+) host names/,
        (m) => `List up to ${m[1]} host names separated by commas, such as example.com, blog.example.com.`,
      ],
    ],
  },
  expires_at: {
    label: 'expiry',
    rules: [
      [/^The expires(_at)? must be one of/, 'Choose when the key expires from the list.'],
      [/^The expires_at must be a date and time in the future/, 'Choose when the key expires from the list.'],
    ],
  },
};

/** The dashboard's batch form (docs/sites.md): start a crawl, a sitemap or a list. */
export const BATCH_FORM: Record<string, FormField> = {
  mode: {
    label: 'what to audit',
    rules: [[/^The mode /, 'Choose what to audit: a crawl, a sitemap or a list of URLs.']],
  },
  url: {
    label: 'start address',
    rules: [
      [/^The url field is required\.$/, 'Enter the page to start from, the sitemap or the site.'],
      [
        /^The url must be an (?:absolute )?http or https URL(?:; did you mean (.+)\?)?\.?$/,
        (m) =>
          `Enter a full web address that starts with http:// or https://${m[1] ? ` — did you mean ${m[1]}?` : '.'}`,
      ],
      [
        /^The url must not be longer than (\d+) characters\.$/,
        (m) => `The address can be at most ${m[1]} characters.`,
      ],
    ],
  },
  urls: {
    label: 'list of URLs',
    rules: [
      [/^The urls field is required/, 'Paste the addresses to audit, one a line.'],
      [
        /^The urls (?:may not have more than|must list at most) (\d+)/,
        (m) => `Paste at most ${Number(m[1]).toLocaleString('en')} addresses.`,
      ],
    ],
  },
  max_pages: {
    label: 'number of pages',
    rules: [
      [/^The max_pages may not be greater than (\d+)\.$/, (m) => `A batch can have at most ${m[1]} pages.`],
      [/^The max_pages must be a whole number/, 'Enter a whole number of pages, 1 or more (empty: 100).'],
    ],
  },
  max_depth: {
    label: 'number of links followed',
    rules: [
      [/^The max_depth must be/, 'Enter how many links to follow from the start: 0 to 100 (empty: 10).'],
    ],
  },
  include: {
    label: 'patterns to include',
    rules: [[/^The include must list at most (\d+)/, (m) => `Give at most ${m[1]} patterns.`]],
  },
  exclude: {
    label: 'patterns to exclude',
    rules: [[/^The exclude must list at most (\d+)/, (m) => `Give at most ${m[1]} patterns.`]],
  },
  privacy: { label: 'privacy', rules: [[/^The privacy /, 'Choose Public or Private for the reports.']] },
  // "Rendered audits need Chromium, which …": already written for people
  render: { label: 'render box', rules: [[/^The render must be one of/, 'Tick the box, or leave it empty.']] },
};

function generic(field: string, label: string, message: string): string {
  const required = new RegExp(`^The ${field} field is required\\.$`);
  if (required.test(message)) return `Enter the ${label}.`;
  const longer = new RegExp(`^The ${field} must not be longer than (\\d+) characters\\.$`).exec(message);
  if (longer) return `The ${label} can be at most ${longer[1]} characters.`;
  return message.replace(new RegExp(`^The ${field}\\b`), `The ${label}`);
}

/** One message in the form's words. */
export function inFormWords(form: Record<string, FormField>, field: string, message: string): string {
  const f = form[field];
  if (!f) return message;
  for (const [re, out] of f.rules ?? []) {
    const m = re.exec(message);
    if (m) return typeof out === 'string' ? out : out(m);
  }
  return generic(field, f.label, message);
}

/** Every field's messages in the form's words (one per field, as the form shows them). */
export function formErrors(form: Record<string, FormField>, errors: FieldErrors): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    out[field] = messages.map((m) => inFormWords(form, field, m));
  }
  return out;
}

/**
 * The errors of fields the form does not show (they have no place next to a field): the
 * page's alert says those, and only those.
 */
export function unplacedErrors(errors: Record<string, string[]>, shown: readonly string[]): string {
  return Object.entries(errors)
    .filter(([field]) => !shown.includes(field))
    .flatMap(([, m]) => m)
    .join(' ');
}
