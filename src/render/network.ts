// The browser's only network: every request Chromium makes is intercepted (page.route) and
// sent from here, through the fetcher's address guard (resolveHost checks every DNS answer,
// guardedConnector connects to the checked address and checks the socket again). Redirects are
// not followed here: a 3xx goes back to Chromium, whose next request comes back through here.
// A per-page budget caps the requests and the bytes. Decisions: docs/rendering.md.
import { Client } from '../analyzer/fetch/undici.js';
import { readBody, ACCEPT_ENCODING } from '../analyzer/fetch/body.js';
import {
  defaultLookup,
  guardedConnector,
  resolveHost,
  type ConnectionInfo,
  type GuardPolicy,
  type Resolved,
} from '../analyzer/fetch/connect.js';
import { classifyAddress, normalizeHost } from '../analyzer/fetch/guard.js';
import { FetchError } from '../analyzer/types.js';
import { withSiteHeaders, type SiteHeaders } from '../analyzer/fetch/site-headers.js';

export interface NetworkPolicy {
  /** PAGEGRADE_ALLOW_PRIVATE_HOSTS: the guard is off (intranets, tests) */
  allowPrivateHosts: boolean;
  /**
   * PAGEGRADE_ALLOW_HOSTS (tests): exact `host:port` origins reachable although their address
   * is refused; nothing else is opened (never "all private addresses").
   */
  allowHosts: readonly string[];
  lookup?: GuardPolicy['lookup'];
  classifyAddress?: (ip: string) => string | null;
}

export interface NetworkBudget {
  maxRequests: number;
  maxBytes: number;
}

export interface NetResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Hop-by-hop and framing headers that must not be passed on in either direction. */
const DROP_REQUEST = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'content-length',
  'accept-encoding',
]);
const DROP_RESPONSE = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'content-length',
  'trailer',
  'upgrade',
]);

const MAX_REDIRECTS = 10;

/** `host:port` of a URL, with the scheme's default port (IPv6 hosts in brackets). */
export function hostPort(u: URL): string {
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${u.hostname.toLowerCase()}:${port}`;
}

/** One page's network: its DNS answers, connections, counters. close() ends everything. */
export class GuardedNetwork {
  requests = 0;
  bytes = 0;
  /** requests refused by the guard or the budget (url → why) */
  readonly refused: { url: string; reason: string }[] = [];
  private readonly clients = new Map<string, Client>();
  private readonly dns = new Map<string, Promise<Resolved>>();
  private closed = false;

  constructor(
    private readonly policy: NetworkPolicy,
    private readonly budget: NetworkBudget,
    private readonly signal: AbortSignal,
    private readonly userAgent: string,
    /** a project's crawl request settings: added to this origin's requests only, per hop */
    private readonly siteHeaders?: SiteHeaders,
  ) {}

  private guardFor(u: URL): GuardPolicy {
    const allowed = this.policy.allowHosts.includes(hostPort(u));
    return {
      allowPrivateHosts: this.policy.allowPrivateHosts || allowed,
      classify: this.policy.classifyAddress ?? classifyAddress,
      lookup: this.policy.lookup ?? defaultLookup,
    };
  }

  /** Refuses with the reason recorded (and thrown). */
  private refuse(url: string, reason: string): never {
    this.refused.push({ url, reason });
    throw new FetchError('blocked_address', reason);
  }

  /**
   * Sends a request and follows its redirects here, each hop through the guard (a 3xx handed
   * back to Chromium would be followed by Chromium itself, outside the interception).
   */
  async request(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: Buffer | null,
  ): Promise<NetResponse & { url: string }> {
    let current = url;
    let m = method;
    let b = body;
    for (let hop = 0; ; hop++) {
      const res = await this.send(current, m, headers, b);
      const location = res.headers['location'];
      if (![301, 302, 303, 307, 308].includes(res.status) || !location) return { ...res, url: current };
      if (hop >= MAX_REDIRECTS) this.refuse(current, `more than ${MAX_REDIRECTS} redirects`);
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        this.refuse(current, `redirect to an invalid URL (${location})`);
      }
      next.hash = '';
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && m === 'POST')) {
        m = 'GET';
        b = null;
      }
      current = next.href;
    }
  }

  private async send(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: Buffer | null,
  ): Promise<NetResponse> {
    if (this.closed) this.refuse(url, 'the page is closed');
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      this.refuse(url, 'not a URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') this.refuse(url, `${u.protocol} is not http(s)`);
    if (u.username !== '' || u.password !== '') this.refuse(url, 'credentials in the URL');
    if (this.requests >= this.budget.maxRequests)
      this.refuse(url, `over the page's request cap (${this.budget.maxRequests})`);
    if (this.bytes >= this.budget.maxBytes)
      this.refuse(url, `over the page's byte cap (${this.budget.maxBytes})`);
    this.requests++;
    const host = normalizeHost(u.hostname);
    if (!host) this.refuse(url, 'invalid host');
    const policy = this.guardFor(u);
    const key = `${policy.allowPrivateHosts ? 'open' : 'guarded'} ${host.host}`;
    let pending = this.dns.get(key);
    if (!pending) {
      pending = resolveHost(host, policy, this.signal);
      pending.catch(() => undefined);
      this.dns.set(key, pending);
    }
    let resolved: Resolved;
    try {
      resolved = await pending;
    } catch (err) {
      this.refuse(url, err instanceof Error ? err.message : String(err));
    }
    const clientKey = `${key} ${u.origin}`;
    let client = this.clients.get(clientKey);
    if (!client) {
      const info: ConnectionInfo = { fresh: false, connectMs: null, tlsMs: null, alpn: null };
      client = new Client(u.origin, {
        connect: guardedConnector(resolved, policy, info, this.signal),
        keepAliveTimeout: 4000,
      });
      this.clients.set(clientKey, client);
    }
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) {
      if (!DROP_REQUEST.has(k.toLowerCase())) out[k] = v;
    }
    out['user-agent'] = this.userAgent;
    out['accept-encoding'] = ACCEPT_ENCODING;
    const res = await client.request({
      origin: u.origin,
      path: `${u.pathname}${u.search}`,
      method,
      // each hop on its own: a cross-origin sub-resource or redirect never gets the site's headers
      headers: withSiteHeaders(u, out, this.siteHeaders),
      ...(body && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
      signal: this.signal,
    });
    const resHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      const name = k.toLowerCase();
      if (DROP_RESPONSE.has(name)) continue;
      resHeaders[name] = Array.isArray(v) ? v.join(name === 'set-cookie' ? '\n' : ', ') : v;
    }
    const room = this.budget.maxBytes - this.bytes;
    const enc = res.headers['content-encoding'];
    const read = await readBody(
      res.body,
      Array.isArray(enc) ? enc.join(', ') : enc,
      Math.max(room, 0),
      true,
      this.signal,
    );
    this.bytes += read.transferBytes;
    return { status: res.statusCode, headers: resHeaders, body: read.body };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.clients.values()].map((c) => c.destroy()));
    this.clients.clear();
  }
}
