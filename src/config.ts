// Configuration: read from the environment (and an optional .env file) once at start,
// validated, frozen. Nothing else in src/ reads process.env.
import { DEFAULT_EXTRACT_TIMEOUT_MS, DEFAULT_TRACKING_PARAMS } from './crawl/defaults.js';
import { existsSync, readFileSync } from 'node:fs';
import { bool, ConfigError, int, share, str, type Env } from './config-values.js';

export { ConfigError };

export interface Config {
  readonly port: number;
  readonly host: string;
  /** `sqlite:<path>` or `postgres://…` */
  readonly databaseUrl: string;
  /** base of every link the service writes, without a trailing slash */
  readonly publicUrl: string;
  readonly bootstrapKey: string | null;
  /** API requests a minute per key; 0 = off */
  readonly rateLimit: number;
  readonly allowPrivateHosts: boolean;
  readonly fetchTimeoutMs: number;
  readonly fetchMaxBytes: number;
  /** `redis://…` for the shared rate-limit and password-throttle stores; null = in memory */
  readonly redisUrl: string | null;
  /** prefix of every Redis key this deployment writes (PAGEGRADE_REDIS_PREFIX, default `pagegrade:`) */
  readonly redisPrefix: string;
  /** PAGEGRADE_TRUST_PROXY: whose X-Forwarded-For to believe (false, true, or proxy addresses/CIDRs: docs/deploy.md) */
  readonly trustProxy: boolean | string;
  readonly logLevel: string;
  /** secret for signed cookies; null = generated once and kept in the database */
  readonly sessionSecret: string | null;
  /**
   * PAGEGRADE_KEY_CACHE_MS: an API key seen is kept in memory at most this long (0 = never); default
   * 10 s. Any change to keys, made anywhere, empties the cache at once (docs/api.md, "The key cache")
   */
  readonly keyCacheMs: number;
  /** user agent the fetcher sends; null = the default `Pagegrade/<version> (+<public url>)` */
  readonly userAgent: string | null;
  /** runs kept per report, the current one included (PAGEGRADE_HISTORY_LIMIT, default 100) */
  readonly historyLimit: number;
  /** PAGEGRADE_BUILDS_KEEP_PER_BRANCH: builds kept per branch that is no build's base branch (docs/ci.md "Builds"); default 20 */
  readonly buildsKeepPerBranch: number;
  /** days an audit log entry is kept (PAGEGRADE_AUDIT_LOG_RETENTION_DAYS, default 365) */
  readonly auditLogRetentionDays: number;
  /** PAGEGRADE_WEBHOOK_TIMEOUT_MS: one webhook delivery attempt's time limit (default 10 s) */
  readonly webhookTimeoutMs: number;
  /** PAGEGRADE_WEBHOOK_DISABLE_AFTER: deliveries failed for good in a row before a webhook is disabled (default 5) */
  readonly webhookDisableAfter: number;
  /** PAGEGRADE_WEBHOOK_RETRY_MS: the wait before a failed attempt's first retry, doubled for each next one, at most 8 h (default 30 s) */
  readonly webhookRetryMs: number;
  /** PAGEGRADE_WEBHOOK_LEASE_MS: an attempt's lease (renewed while it runs): after a crash its delivery is sent again within this (default 15 s) */
  readonly webhookLeaseMs: number;
  /** PAGEGRADE_BATCH_PAGE_LEASE_MS: a batch page's lease (renewed while it runs): after a crash or a lost host its page is taken up again within this (default 15 s) */
  readonly batchPageLeaseMs: number;
  // ── jobs (docs/jobs.md) ──
  /** PAGEGRADE_WORKER: `npm start` runs the job workers too (default); false = API only */
  readonly worker: boolean;
  /** PAGEGRADE_QUEUE: `auto` (BullMQ when REDIS_URL is set, else the jobs table), `embedded`, `bullmq` */
  readonly queueEngine: 'auto' | 'embedded' | 'bullmq';
  /** PAGEGRADE_JOB_CONCURRENCY (`kind=n,kind=n`): jobs of a kind at once per process; 0 = none here */
  readonly jobConcurrency: Readonly<Record<string, number>>;
  /** PAGEGRADE_WORKER_SHUTDOWN_MS: how long running jobs get to finish at shutdown */
  readonly workerShutdownMs: number;
  /** PAGEGRADE_WORKER_HEAP_GROWTH: a process running the workers collects once its V8 heap has grown by this % over what the last full collection kept (default 20; 0 = V8's own, up to 4×; src/jobs/heap.ts) */
  readonly workerHeapGrowth: number;
  /** PAGEGRADE_API_HEAP_GROWTH: the same for a process serving the API, set before the service loads (default 20; 0 = V8's own); a process that also runs the workers takes PAGEGRADE_WORKER_HEAP_GROWTH once they start */
  readonly apiHeapGrowth: number;
  /** PAGEGRADE_JOB_POLL_MS: how often workers look for jobs from other processes and due delays */
  readonly jobPollMs: number;
  /** PAGEGRADE_SCHEDULER_TICK_MS: how often each worker process enqueues the due schedules (default 30 s) */
  readonly schedulerTickMs: number;
  // ── rendered audits (docs/rendering.md) ──
  /** PAGEGRADE_CHROMIUM_PATH: the Chromium executable (default /usr/bin/chromium) */
  readonly chromiumPath: string;
  /** PAGEGRADE_RENDER_CONCURRENCY: pages rendered at once per process (default 2) */
  readonly renderConcurrency: number;
  /** PAGEGRADE_RENDER_TIMEOUT_MS: one page's render, load to serialised DOM and axe (default 15 s) */
  readonly renderTimeoutMs: number;
  /** PAGEGRADE_RENDER_MAX_REQUESTS: requests one rendered page may make (default 150) */
  readonly renderMaxRequests: number;
  /** PAGEGRADE_RENDER_MAX_BYTES: bytes one rendered page's requests may receive (default 20 MB) */
  readonly renderMaxBytes: number;
  /**
   * PAGEGRADE_ALLOW_HOSTS (tests): exact `host:port` origins the browser may reach although the
   * address guard refuses their address; comma-separated. Opens nothing else.
   */
  readonly allowHosts: readonly string[];
  /** PAGEGRADE_METRICS: serve GET /metrics (Prometheus); default off */
  readonly metrics: boolean;
  /** PAGEGRADE_METRICS_TOKEN: Bearer token GET /metrics requires; null = none */
  readonly metricsToken: string | null;
  // ── whole sites (docs/sites.md) ──
  /** PAGEGRADE_BATCH_MAX_PAGES: the largest `max_pages` a batch may ask for (default 10000, at most 100000) */
  readonly batchMaxPages: number;
  /** PAGEGRADE_BATCH_TIME_BUDGET_MS: a batch stops finding pages after this long (default 1 h) */
  readonly batchTimeBudgetMs: number;
  /**
   * PAGEGRADE_REGRESSION_PAGE_SHARE: a crawl is a regression (batch.regressed, `--fail-on-regression`)
   * when more than this share of the pages audited in both crawls drop a band (default 0.1)
   */
  readonly regressionPageShare: number;
  /** PAGEGRADE_CRAWL_DELAY_MS: minimum delay between two requests to a site (default 250; robots.txt Crawl-delay may raise it) */
  readonly crawlDelayMs: number;
  /** PAGEGRADE_LINK_CHECKS=0: a batch's end checks no URL its crawl did not request (docs/sites.md "Links and resources checked"; default on) */
  readonly linkChecks: boolean;
  /** PAGEGRADE_CRAWL_CONCURRENCY: requests at once per site (default 2) */
  readonly crawlConcurrency: number;
  /** PAGEGRADE_EXTRACT_TIMEOUT_MS: a custom extractor's time on one page (default 5 s; docs/sites.md "Custom extraction") */
  readonly extractTimeoutMs: number;
  /** PAGEGRADE_CRAWL_TRACKING_PARAMS: query parameters dropped from crawled URLs (comma-separated, `*` ends a prefix) */
  readonly crawlTrackingParams: readonly string[];
  /**
   * PAGEGRADE_SECRET_KEY: the key (32 bytes, hex or base64) that encrypts the projects' crawl
   * secrets at rest (header and cookie values, the basic-auth password), as 64 hex digits;
   * null = unset: settings with a secret are refused (docs/sites.md)
   */
  readonly secretKey: string | null;
  /** PAGEGRADE_SMTP_URL: smtp:// or smtps:// URL (user and password in it) for reset links by email; null = none */
  readonly smtpUrl: string | null;
  /** PAGEGRADE_SMTP_FROM: the sender of those emails (default `Pagegrade <pagegrade@localhost>`) */
  readonly smtpFrom: string;
  /** single sign-on with OpenID Connect (PAGEGRADE_OIDC_*; docs/teams.md "Single sign-on"); null = off */
  readonly oidc: OidcConfig | null;
}

/** An automatic membership: a verified email of `domain` joins `organization` (by name) with `role`. */
export interface OidcDomainRule {
  readonly domain: string;
  readonly organization: string;
  readonly role: 'viewer' | 'member' | 'admin';
}

/** The issuer (https; http on loopback only), the client (no secret: a public one, PKCE alone), scopes, button name. */
export interface OidcConfig {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string | null;
  /** space-separated, with openid and email (default `openid email profile`) */
  readonly scopes: string;
  readonly name: string;
  readonly domains: readonly OidcDomainRule[];
}

/** Parses a .env file's text: KEY=VALUE lines, # comments, optional quotes. */
export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2] ?? '';
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) {
      value = value.slice(1, -1);
    }
    out[m[1]!] = value;
  }
  return out;
}

/**
 * PAGEGRADE_BATCH_MAX_PAGES may go this high: the largest batch measured on one machine
 * (BENCHMARKS.md, sites) — its pages table is paged by the database, its findings and summary
 * stored once when it ends; above it, a batch is refused at start rather than tried untested.
 */
const BATCH_MAX_PAGES_LIMIT = 100_000;

function trustProxy(env: Env): boolean | string {
  const raw = str(env, 'PAGEGRADE_TRUST_PROXY');
  if (raw === null) return false;
  const v = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(p))) {
    throw new ConfigError(
      'PAGEGRADE_TRUST_PROXY',
      `must be 0, 1 or a comma-separated list of addresses/CIDRs, got "${raw}"`,
    );
  }
  return parts.join(',');
}

function queueEngine(env: Env, redisUrl: string | null): Config['queueEngine'] {
  const raw = str(env, 'PAGEGRADE_QUEUE')?.toLowerCase() ?? 'auto';
  if (raw !== 'auto' && raw !== 'embedded' && raw !== 'bullmq') {
    throw new ConfigError('PAGEGRADE_QUEUE', `must be one of auto, embedded, bullmq, got "${raw}"`);
  }
  if (raw === 'bullmq' && redisUrl === null)
    throw new ConfigError('PAGEGRADE_QUEUE', 'bullmq needs REDIS_URL');
  return raw;
}

/** `webhook.deliver=8,report.reaudit=2` → {…}; the kinds are checked when the workers start. */
function jobConcurrency(env: Env): Readonly<Record<string, number>> {
  const raw = str(env, 'PAGEGRADE_JOB_CONCURRENCY');
  const out: Record<string, number> = {};
  if (raw === null) return Object.freeze(out);
  for (const part of raw.split(',')) {
    const m = /^\s*([a-z][a-z0-9_.-]*)\s*=\s*(\d{1,4})\s*$/.exec(part);
    if (!m) {
      throw new ConfigError(
        'PAGEGRADE_JOB_CONCURRENCY',
        `must be a comma-separated list of kind=number (e.g. "webhook.deliver=8,report.reaudit=2"), got "${raw}"`,
      );
    }
    const n = Number(m[2]);
    if (n > 1000)
      throw new ConfigError('PAGEGRADE_JOB_CONCURRENCY', `${m[1]}: must be between 0 and 1000, got ${n}`);
    out[m[1]!] = n;
  }
  return Object.freeze(out);
}

/** `127.0.0.1:8081,[::1]:9000` → exact host:port entries (lower-cased). */
function allowHosts(env: Env): readonly string[] {
  const raw = str(env, 'PAGEGRADE_ALLOW_HOSTS');
  if (raw === null) return Object.freeze([]);
  const out: string[] = [];
  for (const part of raw.split(',')) {
    const p = part.trim().toLowerCase();
    if (!/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/.test(p)) {
      throw new ConfigError(
        'PAGEGRADE_ALLOW_HOSTS',
        `must be a comma-separated list of host:port (e.g. "127.0.0.1:8081"), got "${raw}"`,
      );
    }
    out.push(p);
  }
  return Object.freeze(out);
}

function trackingParams(env: Env): readonly string[] {
  const raw = str(env, 'PAGEGRADE_CRAWL_TRACKING_PARAMS');
  if (raw === null) return DEFAULT_TRACKING_PARAMS;
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const n of names) {
    if (!/^[A-Za-z0-9_.\-[\]]+\*?$/.test(n)) {
      throw new ConfigError(
        'PAGEGRADE_CRAWL_TRACKING_PARAMS',
        `"${n}" is not a parameter name (letters, digits, _ . - [ ], optionally ending in *)`,
      );
    }
  }
  return names;
}

/**
 * Builds the configuration from an environment. `loadConfig()` is the entry the server
 * and CLI use; tests call this with a plain object.
 */
export function configFromEnv(env: Env): Config {
  const port = int(env, 'PORT', 8080, 0, 65535);
  const host = str(env, 'HOST') ?? '127.0.0.1';

  const databaseUrl = str(env, 'DATABASE_URL') ?? 'sqlite:./data/pagegrade.db';
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', `must start with sqlite: or postgres://, got "${databaseUrl}"`);
  }

  const hostForUrl = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  let publicUrl = str(env, 'PAGEGRADE_PUBLIC_URL') ?? `http://${hostForUrl}:${port}`;
  try {
    const u = new URL(publicUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError('PAGEGRADE_PUBLIC_URL', `must be an http(s) URL, got "${publicUrl}"`);
  }
  publicUrl = publicUrl.replace(/\/+$/, '');

  const bootstrapKey = str(env, 'PAGEGRADE_BOOTSTRAP_KEY');
  if (bootstrapKey !== null && bootstrapKey.length < 24) {
    throw new ConfigError(
      'PAGEGRADE_BOOTSTRAP_KEY',
      'must be at least 24 characters (128 bits of randomness)',
    );
  }

  const redisUrl = str(env, 'REDIS_URL');
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    throw new ConfigError('REDIS_URL', `must start with redis:// or rediss://, got "${redisUrl}"`);
  }

  const logLevel = str(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of fatal, error, warn, info, debug, trace, silent`);
  }

  const sessionSecret = str(env, 'PAGEGRADE_SESSION_SECRET');
  if (sessionSecret !== null && sessionSecret.length < 32) {
    throw new ConfigError('PAGEGRADE_SESSION_SECRET', 'must be at least 32 characters');
  }

  return Object.freeze({
    port,
    host,
    databaseUrl,
    publicUrl,
    bootstrapKey,
    rateLimit: int(env, 'PAGEGRADE_RATE_LIMIT', 240, 0, 1_000_000),
    allowPrivateHosts: bool(env, 'PAGEGRADE_ALLOW_PRIVATE_HOSTS', false),
    fetchTimeoutMs: int(env, 'PAGEGRADE_FETCH_TIMEOUT_MS', 10_000, 100, 600_000),
    fetchMaxBytes: int(env, 'PAGEGRADE_FETCH_MAX_BYTES', 5_242_880, 1024, 1_073_741_824),
    redisUrl,
    redisPrefix: str(env, 'PAGEGRADE_REDIS_PREFIX') ?? 'pagegrade:',
    trustProxy: trustProxy(env),
    logLevel,
    sessionSecret,
    keyCacheMs: int(env, 'PAGEGRADE_KEY_CACHE_MS', 10_000, 0, 300_000),
    userAgent: str(env, 'PAGEGRADE_USER_AGENT'),
    historyLimit: int(env, 'PAGEGRADE_HISTORY_LIMIT', 100, 1, 100_000),
    buildsKeepPerBranch: int(env, 'PAGEGRADE_BUILDS_KEEP_PER_BRANCH', 20, 1, 100_000),
    auditLogRetentionDays: int(env, 'PAGEGRADE_AUDIT_LOG_RETENTION_DAYS', 365, 1, 36_500),
    webhookTimeoutMs: int(env, 'PAGEGRADE_WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
    webhookDisableAfter: int(env, 'PAGEGRADE_WEBHOOK_DISABLE_AFTER', 5, 1, 1_000_000),
    webhookRetryMs: int(env, 'PAGEGRADE_WEBHOOK_RETRY_MS', 30_000, 100, 3_600_000),
    webhookLeaseMs: int(env, 'PAGEGRADE_WEBHOOK_LEASE_MS', 15_000, 1000, 600_000),
    batchPageLeaseMs: int(env, 'PAGEGRADE_BATCH_PAGE_LEASE_MS', 15_000, 1000, 600_000),
    worker: bool(env, 'PAGEGRADE_WORKER', true),
    queueEngine: queueEngine(env, redisUrl),
    jobConcurrency: jobConcurrency(env),
    workerShutdownMs: int(env, 'PAGEGRADE_WORKER_SHUTDOWN_MS', 30_000, 0, 3_600_000),
    workerHeapGrowth: int(env, 'PAGEGRADE_WORKER_HEAP_GROWTH', 20, 0, 300),
    apiHeapGrowth: int(env, 'PAGEGRADE_API_HEAP_GROWTH', 20, 0, 300),
    jobPollMs: int(env, 'PAGEGRADE_JOB_POLL_MS', 1000, 50, 60_000),
    schedulerTickMs: int(env, 'PAGEGRADE_SCHEDULER_TICK_MS', 30_000, 100, 3_600_000),
    chromiumPath: str(env, 'PAGEGRADE_CHROMIUM_PATH') ?? '/usr/bin/chromium',
    renderConcurrency: int(env, 'PAGEGRADE_RENDER_CONCURRENCY', 2, 1, 64),
    renderTimeoutMs: int(env, 'PAGEGRADE_RENDER_TIMEOUT_MS', 15_000, 1000, 600_000),
    renderMaxRequests: int(env, 'PAGEGRADE_RENDER_MAX_REQUESTS', 150, 1, 10_000),
    renderMaxBytes: int(env, 'PAGEGRADE_RENDER_MAX_BYTES', 20_971_520, 1024, 1_073_741_824),
    allowHosts: allowHosts(env),
    metrics: bool(env, 'PAGEGRADE_METRICS', false),
    metricsToken: metricsToken(env),
    batchMaxPages: int(env, 'PAGEGRADE_BATCH_MAX_PAGES', 10_000, 1, BATCH_MAX_PAGES_LIMIT),
    batchTimeBudgetMs: int(env, 'PAGEGRADE_BATCH_TIME_BUDGET_MS', 3_600_000, 1000, 7 * 24 * 3_600_000),
    regressionPageShare: share(env, 'PAGEGRADE_REGRESSION_PAGE_SHARE', 0.1),
    crawlDelayMs: int(env, 'PAGEGRADE_CRAWL_DELAY_MS', 250, 0, 600_000),
    linkChecks: bool(env, 'PAGEGRADE_LINK_CHECKS', true),
    crawlConcurrency: int(env, 'PAGEGRADE_CRAWL_CONCURRENCY', 2, 1, 64),
    extractTimeoutMs: int(env, 'PAGEGRADE_EXTRACT_TIMEOUT_MS', DEFAULT_EXTRACT_TIMEOUT_MS, 100, 600_000),
    crawlTrackingParams: trackingParams(env),
    secretKey: secretKey(env),
    smtpUrl: smtpUrl(env),
    smtpFrom: str(env, 'PAGEGRADE_SMTP_FROM') ?? 'Pagegrade <pagegrade@localhost>',
    oidc: oidc(env),
  });
}

/** PAGEGRADE_OIDC_*: issuer and client id together, or neither (single sign-on off). */
function oidc(env: Env): OidcConfig | null {
  const issuer = str(env, 'PAGEGRADE_OIDC_ISSUER');
  const clientId = str(env, 'PAGEGRADE_OIDC_CLIENT_ID');
  if (issuer === null && clientId === null) return null;
  if (issuer === null || clientId === null) {
    const missing = issuer === null ? 'PAGEGRADE_OIDC_ISSUER' : 'PAGEGRADE_OIDC_CLIENT_ID';
    throw new ConfigError(missing, 'must be set too: single sign-on takes the issuer and the client id');
  }
  let url: URL | null = null;
  try {
    url = new URL(issuer);
  } catch {
    url = null;
  }
  const loopback = url !== null && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (
    !url ||
    !(url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) ||
    url.search ||
    url.hash
  )
    throw new ConfigError(
      'PAGEGRADE_OIDC_ISSUER',
      `must be an https:// URL (http:// only on 127.0.0.1, localhost or [::1]) without query, got "${issuer}"`,
    );
  const scopes = (str(env, 'PAGEGRADE_OIDC_SCOPES') ?? 'openid email profile').split(/\s+/);
  if (
    !scopes.includes('openid') ||
    !scopes.includes('email') ||
    scopes.some((s) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s))
  )
    throw new ConfigError(
      'PAGEGRADE_OIDC_SCOPES',
      'must be space-separated scopes including openid and email',
    );
  return Object.freeze({
    issuer,
    clientId,
    clientSecret: str(env, 'PAGEGRADE_OIDC_CLIENT_SECRET'),
    scopes: scopes.join(' '),
    name: str(env, 'PAGEGRADE_OIDC_NAME')?.slice(0, 64) ?? 'single sign-on',
    domains: oidcDomains(env),
  });
}

/** PAGEGRADE_OIDC_DOMAINS: `agency.com=Agency:member,client.com=Client:viewer` (role default member). */
function oidcDomains(env: Env): readonly OidcDomainRule[] {
  const raw = str(env, 'PAGEGRADE_OIDC_DOMAINS');
  if (raw === null) return Object.freeze([]);
  const out: OidcDomainRule[] = [];
  for (const part of raw.split(',')) {
    const m =
      /^\s*@?([a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?)\s*=\s*([^:]+?)\s*(?::\s*(viewer|member|admin))?\s*$/i.exec(
        part,
      );
    if (!m || !m[1]!.includes('.') || out.some((r) => r.domain === m[1]!.toLowerCase()))
      throw new ConfigError(
        'PAGEGRADE_OIDC_DOMAINS',
        `must be a comma-separated list of domain=organization[:role] with role viewer, member or admin and each domain once (e.g. "agency.com=Acme Agency:member"), got "${part.trim()}"`,
      );
    const role = (m[3]?.toLowerCase() ?? 'member') as OidcDomainRule['role'];
    out.push({ domain: m[1]!.toLowerCase(), organization: m[2]!, role });
  }
  return Object.freeze(out);
}

/** PAGEGRADE_SECRET_KEY: 32 bytes as 64 hex digits or base64 (either alphabet) → hex. */
function secretKey(env: Env): string | null {
  const raw = str(env, 'PAGEGRADE_SECRET_KEY');
  if (raw === null) return null;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return raw.toLowerCase();
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(raw)) {
    const bytes = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes.toString('hex');
  }
  throw new ConfigError(
    'PAGEGRADE_SECRET_KEY',
    'must be 32 bytes written as 64 hex digits or in base64 (e.g. the output of `openssl rand -hex 32`)',
  );
}

/** PAGEGRADE_SMTP_URL: an smtp:// or smtps:// URL. */
function smtpUrl(env: Env): string | null {
  const raw = str(env, 'PAGEGRADE_SMTP_URL');
  if (raw === null) return null;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  if (!url || !['smtp:', 'smtps:'].includes(url.protocol) || !url.hostname)
    throw new ConfigError(
      'PAGEGRADE_SMTP_URL',
      'must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587',
    );
  return raw;
}

function metricsToken(env: Env): string | null {
  const token = str(env, 'PAGEGRADE_METRICS_TOKEN');
  if (token !== null && !/^[A-Za-z0-9._~+/=-]{16,512}$/.test(token))
    throw new ConfigError(
      'PAGEGRADE_METRICS_TOKEN',
      'must be 16 to 512 characters of A-Z a-z 0-9 . _ ~ + / = - (a Bearer token)',
    );
  return token;
}

/** Reads process.env, with values from `.env` (in the working directory) where the environment has none. */
export function loadConfig(envFile = '.env'): Config {
  const fromFile = existsSync(envFile) ? parseDotEnv(readFileSync(envFile, 'utf8')) : {};
  return configFromEnv({ ...fromFile, ...process.env });
}
