// A project's settings (docs/sites.md, "Projects as sites"): checked, merged (PATCH), split
// into what is stored in clear and the secrets (encrypted with PAGEGRADE_SECRET_KEY), and
// shown without the secrets. Pure but for the clock-free crypto of ../shared/secrets.ts.
import { projectName } from '../../analyzer/url.js';
import { NOT_SENT } from '../../analyzer/fetch/site-headers.js';
import { checks } from '../../analyzer/checks/index.js';
import { FINDINGS } from '../../crawl/findings/index.js';
import { AppError, validationError, type FieldErrors } from '../../errors.js';
import type { ProjectSettings, ProjectSettingsBody } from '../../contract/project-settings.js';
import { checkEvery, checkTimezone } from '../schedules/schedules.service.js';
import { decryptSecret, encryptSecret } from '../shared/secrets.js';
import { ruleId } from '../audit/ignore.js';
import { globError, type IgnoreRule } from '../../crawl/ignore.js';
import { checkExtractors, type Extractor } from '../../crawl/extract.js';
import { CSV_COLUMNS } from '../../contract/batches/schemas.js';
import { DEFAULT_MAX_DEPTH, DEFAULT_MAX_PAGES } from '../batches/types.js';
import { DEFAULT_MAX_EXTERNAL_CHECKS, DEFAULT_MAX_SITE_CHECKS, FINDING_SETTINGS } from '../../crawl/defaults.js';

/** What is stored in clear (projects.settings): every setting, the secrets' names only. */
export interface StoredSettings {
  start_url: string | null;
  mode: 'crawl' | 'sitemap' | 'list';
  urls: string[];
  max_pages: number;
  max_depth: number;
  include: string[];
  exclude: string[];
  render: 0 | 1;
  /** links to other sites checked in the project's crawls (docs/sites.md "Links and resources checked") */
  check_external: 0 | 1;
  max_external_checks: number;
  /** the site's own URLs checked per crawl, at most (a project stored before it: the default) */
  max_site_checks: number;
  /** the findings' thresholds of the project's crawls (docs/sites.md "Every finding") */
  thin_content_words: number;
  near_duplicate_threshold: number;
  deep_page_depth: number;
  default_privacy: 0 | 1;
  schedule: { every: string; timezone: string } | null;
  header_names: string[];
  cookie_names: string[];
  basic_auth_username: string | null;
  /** the ignore rules (docs/sites.md, "Issue states and ignore rules"), each with its rule_id */
  ignore: IgnoreRule[];
  /** custom extraction of the project's crawls (src/crawl/extract.ts) */
  extractors: Extractor[];
}

/** What is stored encrypted (projects.secrets). */
export interface Secrets {
  headers: Record<string, string>;
  cookies: Record<string, string>;
  password: string | null;
}

export const DEFAULT_SETTINGS: StoredSettings = {
  start_url: null,
  mode: 'crawl',
  urls: [],
  max_pages: DEFAULT_MAX_PAGES,
  max_depth: DEFAULT_MAX_DEPTH,
  include: [],
  exclude: [],
  render: 0,
  check_external: 0,
  max_external_checks: DEFAULT_MAX_EXTERNAL_CHECKS,
  max_site_checks: DEFAULT_MAX_SITE_CHECKS,
  thin_content_words: FINDING_SETTINGS.thin_content_words.default,
  near_duplicate_threshold: FINDING_SETTINGS.near_duplicate_threshold.default,
  deep_page_depth: FINDING_SETTINGS.deep_page_depth.default,
  default_privacy: 0,
  schedule: null,
  header_names: [],
  cookie_names: [],
  basic_auth_username: null,
  ignore: [],
  extractors: [],
};

const NO_SECRETS: Secrets = { headers: {}, cookies: {}, password: null };

/** RFC 9110 token: a header's name; a cookie's name is a token too (RFC 6265). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** a control character (tab aside): a header value must not start another header */
const hasControl = (v: string): boolean =>
  [...v].some((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 && code !== 0x09) || code === 0x7f;
  });
const fieldValueOk = (v: string): boolean => !hasControl(v);
const cookieValueOk = (v: string): boolean => !hasControl(v) && !/[;,\s]/.test(v);
const MAX_SECRET_ENTRIES = 50;

const KNOWN_RULE_IDS = new Set([...checks.map((c) => c.id), ...FINDINGS.map((f) => f.id)]);

export interface SettingsContext {
  project: string;
  /** PAGEGRADE_BATCH_MAX_PAGES */
  maxPagesLimit: number;
  /** PAGEGRADE_SECRET_KEY as hex; null = unset */
  secretKey: string | null;
}

function noKey(field: string): string {
  return `The ${field} cannot be stored: its values are secrets, stored encrypted with PAGEGRADE_SECRET_KEY, which is not set. Set it to 32 random bytes as hex or base64 (e.g. \`openssl rand -hex 32\`) and restart.`;
}

function checkSecretMap(
  field: 'headers' | 'cookies',
  given: Record<string, string>,
  errors: FieldErrors,
): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = Object.entries(given);
  if (entries.length > MAX_SECRET_ENTRIES) {
    errors[field] = [`The ${field} may not have more than ${MAX_SECRET_ENTRIES} entries.`];
    return out;
  }
  const valueOk = field === 'headers' ? fieldValueOk : cookieValueOk;
  for (const [name, value] of entries) {
    if (!TOKEN.test(name)) {
      errors[field] = [
        `The ${field} name "${name.slice(0, 64)}" is not a valid name (letters, digits and !#$%&'*+.^_\`|~-).`,
      ];
      return out;
    }
    if (!valueOk(value)) {
      errors[`${field}.${name}`] = [
        field === 'headers'
          ? `The headers.${name} value may not contain line breaks or control characters.`
          : `The cookies.${name} value may not contain spaces, commas, semicolons or control characters.`,
      ];
      return out;
    }
    // a header's name is case-insensitive: one value per name
    const key = field === 'headers' ? name.toLowerCase() : name;
    if (field === 'headers' && NOT_SENT.has(key)) {
      errors[`headers.${name}`] = [
        `The ${name} header belongs to the connection and cannot be set (not one of ${[...NOT_SENT].join(', ')}).`,
      ];
      return out;
    }
    out[key] = value;
  }
  return out;
}

/** An ignore rule as a request gives it (a rule_id sent back from an answer is not read: it is derived). */
export interface IgnoreRuleBody {
  id: string;
  url_pattern?: string | undefined;
  reason: string;
  expires_at?: string | null | undefined;
  rule_id?: string | undefined;
}

/**
 * Checks one ignore rule (errors under `<prefix>id`, `url_pattern`, `expires_at`) and gives it
 * its rule_id; null when invalid.
 */
export function checkIgnoreRule(r: IgnoreRuleBody, prefix: string, errors: FieldErrors): IgnoreRule | null {
  let ok = true;
  if (!KNOWN_RULE_IDS.has(r.id)) {
    errors[`${prefix}id`] = [
      `The ${prefix}id must be a check id or a site finding id (docs/checks.md, docs/sites.md); "${r.id.slice(0, 64)}" is neither.`,
    ];
    ok = false;
  }
  const pattern = (r.url_pattern ?? '').trim();
  const bad = globError(pattern);
  if (bad !== null) {
    errors[`${prefix}url_pattern`] = [
      `The ${prefix}url_pattern must be a glob over the page URL: ${bad}; * stands for any characters.`,
    ];
    ok = false;
  }
  const expires = r.expires_at ? new Date(r.expires_at) : null;
  if (expires !== null && Number.isNaN(expires.getTime())) {
    errors[`${prefix}expires_at`] = [`The ${prefix}expires_at must be a date-time such as 2027-01-31T00:00:00Z.`];
    ok = false;
  }
  if (!ok) return null;
  const rule = {
    id: r.id,
    url_pattern: pattern,
    reason: r.reason.trim(),
    expires_at: expires ? expires.toISOString() : null,
  };
  return { rule_id: ruleId(rule), ...rule };
}

/** Applies a request body over the current settings (PUT: over the defaults), checking every field. */
export function applySettings(
  ctx: SettingsContext,
  current: { settings: StoredSettings; secrets: Secrets },
  body: ProjectSettingsBody,
): { settings: StoredSettings; secrets: Secrets } {
  const errors: FieldErrors = {};
  const s: StoredSettings = { ...current.settings };
  const secrets: Secrets = { ...current.secrets };

  if (body.start_url !== undefined) {
    if (body.start_url === null) s.start_url = null;
    else {
      let u: URL | null = null;
      try {
        u = new URL(body.start_url.trim());
      } catch {
        u = null;
      }
      if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
        errors.start_url = ['The start_url must be an absolute http or https URL.'];
      else if (projectName(u.hostname) !== ctx.project)
        errors.start_url = [
          `The start_url must be on the project's host, ${ctx.project} (or www.${ctx.project}); ${u.hostname} is another host.`,
        ];
      else s.start_url = u.href;
    }
  }
  if (body.mode !== undefined) s.mode = body.mode;
  if (body.urls !== undefined) {
    const urls: string[] = [];
    for (const [i, raw] of body.urls.entries()) {
      try {
        const u = new URL(raw.trim());
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
        urls.push(u.href);
      } catch {
        errors[`urls.${i}`] = ['Each URL must be an absolute http or https URL.'];
        break;
      }
    }
    s.urls = [...new Set(urls)];
  }
  if (body.max_pages !== undefined) {
    if (body.max_pages > ctx.maxPagesLimit)
      errors.max_pages = [`The max_pages must be a whole number from 1 to ${ctx.maxPagesLimit}.`];
    else s.max_pages = body.max_pages;
  }
  if (body.max_depth !== undefined) s.max_depth = body.max_depth;
  if (body.include !== undefined) s.include = body.include;
  if (body.exclude !== undefined) s.exclude = body.exclude;
  if (body.render !== undefined) s.render = body.render;
  if (body.check_external !== undefined) s.check_external = body.check_external;
  if (body.max_external_checks !== undefined) s.max_external_checks = body.max_external_checks;
  if (body.max_site_checks !== undefined) s.max_site_checks = body.max_site_checks;
  if (body.thin_content_words !== undefined) s.thin_content_words = body.thin_content_words;
  if (body.near_duplicate_threshold !== undefined) s.near_duplicate_threshold = body.near_duplicate_threshold;
  if (body.deep_page_depth !== undefined) s.deep_page_depth = body.deep_page_depth;
  if (body.default_privacy !== undefined) s.default_privacy = body.default_privacy;
  if (body.schedule !== undefined) {
    if (body.schedule === null) s.schedule = null;
    else {
      try {
        const timezone = checkTimezone(body.schedule.timezone ?? 'UTC');
        s.schedule = { every: checkEvery(body.schedule.every, timezone), timezone };
      } catch (err) {
        if (!(err instanceof AppError) || !err.fields) throw err;
        for (const [k, v] of Object.entries(err.fields))
          errors[`schedule.${k}`] = v.map((m) => m.replace(`The ${k} `, `The schedule.${k} `));
      }
    }
  }
  if (body.headers !== undefined) {
    secrets.headers = checkSecretMap('headers', body.headers, errors);
    s.header_names = Object.keys(secrets.headers);
  }
  if (body.cookies !== undefined) {
    secrets.cookies = checkSecretMap('cookies', body.cookies, errors);
    s.cookie_names = Object.keys(secrets.cookies);
  }
  if (body.basic_auth !== undefined) {
    if (body.basic_auth === null) {
      s.basic_auth_username = null;
      secrets.password = null;
    } else if (body.basic_auth.username.includes(':') || !fieldValueOk(body.basic_auth.username)) {
      errors['basic_auth.username'] = [
        'The basic_auth.username may not contain a colon or control characters.',
      ];
    } else {
      s.basic_auth_username = body.basic_auth.username;
      secrets.password = body.basic_auth.password;
    }
  }
  if (body.ignore !== undefined) {
    s.ignore = [];
    for (const [i, r] of body.ignore.entries()) {
      const rule = checkIgnoreRule(r, `ignore.${i}.`, errors);
      // the same rule twice is one rule (its rule_id is its content's)
      if (rule && !s.ignore.some((x) => x.rule_id === rule.rule_id)) s.ignore.push(rule);
    }
  }
  if (body.extractors !== undefined)
    s.extractors = checkExtractors(body.extractors, errors, 'extractors', CSV_COLUMNS);
  if (s.mode === 'list' && s.urls.length === 0 && (body.mode !== undefined || body.urls !== undefined))
    errors.urls = ['The urls field is required when mode is list.'];
  // a schedule crawls from the start_url (docs/sites.md "Scheduled crawls"): one that could never run is refused
  const scheduleTouched = body.schedule !== undefined || body.start_url !== undefined;
  if (s.schedule !== null && s.start_url === null && scheduleTouched) {
    const field = body.schedule ? 'schedule' : 'start_url';
    errors[field] ??= [
      `The ${field} cannot be set this way: a schedule crawls from the start_url, so a project with a schedule needs one (set start_url, or clear the schedule with null).`,
    ];
  }

  // secrets are never stored in clear: without the key, settings that hold one are refused
  if (ctx.secretKey === null) {
    if (body.headers !== undefined && Object.keys(body.headers).length > 0)
      errors.headers ??= [noKey('headers')];
    if (body.cookies !== undefined && Object.keys(body.cookies).length > 0)
      errors.cookies ??= [noKey('cookies')];
    if (body.basic_auth) errors.basic_auth ??= [noKey('basic_auth')];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { settings: s, secrets };
}

function hasSecrets(x: Secrets): boolean {
  return Object.keys(x.headers).length > 0 || Object.keys(x.cookies).length > 0 || x.password !== null;
}

/** The two stored columns. */
export function encodeSettings(
  secretKey: string | null,
  v: { settings: StoredSettings; secrets: Secrets },
): { settings: string; secrets: string | null } {
  const secrets = hasSecrets(v.secrets) ? encryptSecret(secretKey!, JSON.stringify(v.secrets)) : null;
  return { settings: JSON.stringify(v.settings), secrets };
}

/** The stored settings (defaults when none); the secrets only when `secretKey` is given. */
export function decodeSettings(
  secretKey: string | null,
  row: { settings: string | null; secrets: string | null },
  withSecrets: boolean,
): { settings: StoredSettings; secrets: Secrets } {
  const settings = row.settings
    ? { ...DEFAULT_SETTINGS, ...(JSON.parse(row.settings) as Partial<StoredSettings>) }
    : { ...DEFAULT_SETTINGS };
  // rules stored before rule ids: given theirs (derived from the rule, so the same every time)
  settings.ignore = settings.ignore.map((r) => (r.rule_id ? r : { ...r, rule_id: ruleId(r) }));
  if (!withSecrets || row.secrets === null) return { settings, secrets: { ...NO_SECRETS } };
  if (secretKey === null)
    throw validationError({
      headers: [
        'The project has secrets stored encrypted with PAGEGRADE_SECRET_KEY, which is not set: set it back (or send headers, cookies and basic_auth anew).',
      ],
    });
  try {
    return { settings, secrets: JSON.parse(decryptSecret(secretKey, row.secrets)) as Secrets };
  } catch {
    throw validationError({
      headers: [
        'The project has secrets that PAGEGRADE_SECRET_KEY cannot decrypt (the key changed): set the former key back, or send headers, cookies and basic_auth anew.',
      ],
    });
  }
}

/** The settings as the API answers them: the secrets only as set. */
export function presentSettings(s: StoredSettings): ProjectSettings {
  return {
    start_url: s.start_url,
    mode: s.mode,
    urls: s.urls,
    max_pages: s.max_pages,
    max_depth: s.max_depth,
    include: s.include,
    exclude: s.exclude,
    render: s.render,
    check_external: s.check_external,
    max_external_checks: s.max_external_checks,
    max_site_checks: s.max_site_checks,
    thin_content_words: s.thin_content_words,
    near_duplicate_threshold: s.near_duplicate_threshold,
    deep_page_depth: s.deep_page_depth,
    default_privacy: s.default_privacy,
    schedule: s.schedule,
    headers: s.header_names.map((name) => ({ name, set: true as const })),
    cookies: s.cookie_names.map((name) => ({ name, set: true as const })),
    basic_auth:
      s.basic_auth_username === null ? null : { username: s.basic_auth_username, password_set: true },
    ignore: s.ignore,
    extractors: s.extractors,
  };
}
