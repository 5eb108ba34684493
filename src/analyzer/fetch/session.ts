// One fetch's connections: a Session holds the DNS answers and the undici dispatchers of one
// fetchPage (or fetchSiteFile) call, each connection through the address guard, and
// fetchResource GETs one resource through it, following redirects by hand (docs/fetcher.md).
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { Client, Pool } from './undici.js';
import { FetchError } from '../types.js';
import { readBody } from './body.js';
import {
  guardedConnector,
  resolveHost,
  type ConnectionInfo,
  type GuardPolicy,
  type Resolved,
} from './connect.js';
import { normalizeHost } from './guard.js';
import type { ConnectionPool } from './pool.js';
import { withSiteHeaders, type SiteHeaders } from './site-headers.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Lower-cased names; repeated headers joined with ", " (set-cookie with "\n"). */
function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    const name = k.toLowerCase();
    out[name] = Array.isArray(v) ? v.join(name === 'set-cookie' ? '\n' : ', ') : v;
  }
  return out;
}

interface DispatcherEntry {
  dispatcher: Dispatcher & { destroy(): Promise<void> };
  info: ConnectionInfo;
}

/** A connection for one request: its dispatcher, what its connector learned, and its release. */
interface Opened {
  dispatcher: Dispatcher;
  info: ConnectionInfo;
  /** a kept connection (ConnectionPool) rather than the fetch's own */
  kept: boolean;
  /** the host's DNS time for this request, once its headers are in (a kept connection reused: 0) */
  dnsMs(): number | null;
  release(): void;
}

const noop = () => undefined;

/** One fetchPage call's connections and DNS answers; everything is closed at the end. */
export class Session {
  private readonly dispatchers = new Map<string, DispatcherEntry>();
  private readonly dns = new Map<string, Promise<Resolved>>();

  constructor(
    readonly policy: GuardPolicy,
    readonly budgetMs: number,
    /** DNS lookups and the page's connections end with the page's signal; site files' connections with theirs */
    private readonly signals: Record<'page' | 'extra', AbortSignal>,
    private readonly tlsCa?: string | Buffer,
    /** the page's connections are taken from it (kept between fetches) when given */
    private readonly pool?: ConnectionPool,
  ) {}

  async open(url: URL, kind: 'page' | 'extra', signal: AbortSignal): Promise<Opened> {
    const host = normalizeHost(url.hostname);
    if (!host) throw new FetchError('invalid_url', `The URL ${url.href} has an invalid host.`);
    if (kind === 'page' && this.pool) {
      // DNS and the guard run in the pool's connector, for each new connection
      const lease = await this.pool.acquire(url.origin, host, this.policy, signal, this.tlsCa);
      const info = lease.info;
      return {
        dispatcher: lease.client,
        info,
        kept: true,
        dnsMs: () => (host.family !== 0 ? null : info.fresh ? info.dnsMs : 0),
        release: lease.release,
      };
    }
    let pending = this.dns.get(host.host);
    if (!pending) {
      pending = resolveHost(host, this.policy, this.signals.page);
      this.dns.set(host.host, pending);
    }
    const resolved = await pending;
    // one lookup per host per fetch, shared by the page and the site files: its time is the host's DNS time
    const dnsMs = resolved.dnsMs;
    const key = `${kind} ${url.origin}`;
    let entry = this.dispatchers.get(key);
    if (!entry) {
      const info: ConnectionInfo = { fresh: false, connectMs: null, tlsMs: null, alpn: null };
      const common = {
        connect: guardedConnector(resolved, this.policy, info, this.signals[kind], this.tlsCa),
        allowH2: true,
        headersTimeout: this.budgetMs,
        bodyTimeout: this.budgetMs,
        keepAliveTimeout: 4000,
      };
      const dispatcher =
        kind === 'page'
          ? new Client(url.origin, common)
          : new Pool(url.origin, { ...common, connections: 4 });
      entry = { dispatcher, info };
      this.dispatchers.set(key, entry);
    }
    return { dispatcher: entry.dispatcher, info: entry.info, kept: false, dnsMs: () => dnsMs, release: noop };
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.dispatchers.values()].map((e) => e.dispatcher.destroy()));
    this.dispatchers.clear();
  }
}

/**
 * A kept connection the server closed while it sat idle: the request never reached it. (An
 * answer that cannot be parsed on a kept connection — `HPE_*`: a body a server sent with a HEAD
 * answer before it — is tried again once too.)
 */
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE']);

export interface ResourceOptions {
  kind: 'page' | 'extra';
  maxRedirects: number;
  maxBytes: number;
  /** keep the first maxBytes instead of failing */
  truncate: boolean;
  signal: AbortSignal;
  headers: Record<string, string>;
  /** headers added to the hops on one origin only (a project's crawl request settings) */
  siteHeaders?: SiteHeaders | undefined;
  /** stop after the headers (favicon) */
  headersOnly?: boolean;
  /** HEAD instead of GET (a batch's link and resource checks: docs/sites.md); the answer has no body */
  method?: 'GET' | 'HEAD';
  /** asked before a redirect is followed: a reason refuses it (FetchOptions.redirectCheck) */
  redirectCheck?: ((url: string) => string | null) | undefined;
  /** called on the final (non-redirect) response's headers; may throw to stop */
  onFinalHeaders?: (finalUrl: URL, status: number, headers: Record<string, string>) => void;
}

export interface ResourceResult {
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  redirects: { url: string; status: number }[];
  body: Buffer;
  transferBytes: number;
  truncated: boolean;
  httpVersion: string;
  hop: { dnsMs: number | null; connectMs: number | null; tlsMs: number | null; ttfbMs: number };
}

export async function fetchResource(
  session: Session,
  startUrl: string,
  o: ResourceOptions,
): Promise<ResourceResult> {
  const redirects: { url: string; status: number }[] = [];
  let url = new URL(startUrl);
  // one retry of a request sent over a kept connection that turned out closed (as browsers do for a GET)
  let retried = false;
  for (;;) {
    const hopStart = performance.now();
    const conn = await session.open(url, o.kind, o.signal);
    try {
      conn.info.fresh = false;
      let res: Dispatcher.ResponseData;
      try {
        res = await conn.dispatcher.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: o.method ?? 'GET',
          // undici closes a connection after a HEAD (for servers that send a body with one); a
          // kept connection stays open for the next check: a body sent anyway breaks the next
          // answer's parse, which is tried again once on a connection of its own (below)
          ...(o.method === 'HEAD' && conn.kept ? { reset: false } : {}),
          // per hop: a redirect to another origin does not take the site's headers along
          headers: withSiteHeaders(url, o.headers, o.siteHeaders),
          signal: o.signal,
        });
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (
          conn.kept &&
          !conn.info.fresh &&
          !retried &&
          !o.signal.aborted &&
          (CLOSED_CODES.has(String(code)) || String(code).startsWith('HPE_'))
        ) {
          retried = true;
          continue;
        }
        throw err;
      }
      const ttfbMs = performance.now() - hopStart;
      const headers = flattenHeaders(res.headers);
      const location = headers['location'];
      if (REDIRECT_STATUSES.has(res.statusCode) && location) {
        await res.body.dump({ signal: o.signal, limit: 65536 }).catch(() => undefined);
        redirects.push({ url: url.href, status: res.statusCode });
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new FetchError(
            'invalid_url',
            `The page at ${url.href} redirects to an invalid URL (${location}).`,
          );
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new FetchError(
            'invalid_url',
            `The page at ${url.href} redirects to ${next.href}, which is not an http or https URL.`,
          );
        }
        if (redirects.length > o.maxRedirects) {
          throw new FetchError(
            'too_many_redirects',
            `The page at ${startUrl} redirects more than ${o.maxRedirects} times (the last hop was ${url.href}).`,
            { redirectPath: [...redirects.map((r) => r.url), next.href] },
          );
        }
        next.hash = '';
        // credentials in a Location are never sent; dropped so that no report shows them
        next.username = '';
        next.password = '';
        // back to a URL of this request's own path: it would never end
        if (redirects.some((r) => r.url === next.href)) {
          const path = [...redirects.map((r) => r.url), next.href];
          throw new FetchError('redirect_loop', `The page at ${startUrl} redirects in a loop: ${path.join(' → ')}.`, {
            redirectPath: path,
          });
        }
        const refused = o.redirectCheck?.(next.href) ?? null;
        if (refused !== null) {
          throw new FetchError(
            'redirect_refused',
            `The page at ${url.href} redirects to ${next.href}, which is not followed: ${refused}.`,
          );
        }
        url = next;
        continue;
      }
      o.onFinalHeaders?.(url, res.statusCode, headers);
      const fresh = conn.info.fresh;
      const hop = {
        dnsMs: conn.dnsMs(),
        connectMs: fresh ? conn.info.connectMs : 0,
        tlsMs: url.protocol === 'https:' ? (fresh ? conn.info.tlsMs : 0) : null,
        ttfbMs,
      };
      const httpVersion = conn.info.alpn === 'h2' ? '2' : '1.1';
      if (o.headersOnly || o.method === 'HEAD') {
        if (o.method === 'HEAD') {
          // a HEAD answer has no body: read its end, and a kept connection stays open for the next
          await res.body.dump({ signal: o.signal, limit: 65536 }).catch(() => undefined);
        } else {
          // drop the body: destroying it ends the connection, and its abort error is expected
          res.body.on('error', () => undefined);
          res.body.destroy();
        }
        return {
          finalUrl: url.href,
          status: res.statusCode,
          headers,
          redirects,
          body: Buffer.alloc(0),
          transferBytes: 0,
          truncated: false,
          httpVersion,
          hop,
        };
      }
      const read = await readBody(res.body, headers['content-encoding'], o.maxBytes, o.truncate, o.signal);
      return { finalUrl: url.href, status: res.statusCode, headers, redirects, ...read, httpVersion, hop };
    } finally {
      // a kept connection goes back once its body is read or dropped
      conn.release();
    }
  }
}
