// Outgoing POSTs (webhook deliveries) through the fetcher's address guard: the same DNS
// lookup with every answer checked (resolveHost) and the same connector that connects to the
// checked address and checks the connected socket again (guardedConnector). There is no
// second guard. Redirects are never followed: a 3xx is returned as the answer it is.
import { performance } from 'node:perf_hooks';
import { Client } from './undici.js';
import { FetchError } from '../types.js';
import {
  defaultLookup,
  guardedConnector,
  resolveHost,
  type ConnectionInfo,
  type GuardPolicy,
} from './connect.js';
import { seconds, toFetchError } from './errors.js';
import { classifyAddress, normalizeHost } from './guard.js';

export interface GuardOptions {
  /** PAGEGRADE_ALLOW_PRIVATE_HOSTS: skip the address guard (tests, intranets) */
  allowPrivateHosts: boolean;
  /** test seam: DNS (default: the system resolver, every answer) */
  lookup?: GuardPolicy['lookup'];
  /** test seam: the guard's classification (default classifyAddress) */
  classifyAddress?: (ip: string) => string | null;
}

export interface PostOptions extends GuardOptions {
  /** the whole request: DNS, connect, sending, the answer's headers and body */
  timeoutMs: number;
  headers: Record<string, string>;
  signal?: AbortSignal;
  /** bytes of the answer's body kept (default 1024); the rest is discarded */
  maxResponseBytes?: number;
  /** extra CA certificate(s) to trust for https (tests) */
  tlsCa?: string | Buffer;
}

export interface PostResult {
  status: number;
  headers: Record<string, string>;
  /** the start of the answer's body (UTF-8, at most maxResponseBytes) */
  body: string;
  durationMs: number;
}

function policyOf(o: GuardOptions): GuardPolicy {
  return {
    allowPrivateHosts: o.allowPrivateHosts,
    classify: o.classifyAddress ?? classifyAddress,
    lookup: o.lookup ?? defaultLookup,
  };
}

/** An http(s) URL without credentials, or a FetchError('invalid_url') saying what is wrong. */
function parseTarget(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new FetchError('invalid_url', 'The URL must be an absolute http or https URL.');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new FetchError('invalid_url', 'The URL must be an absolute http or https URL.');
  if (u.username !== '' || u.password !== '')
    throw new FetchError('invalid_url', 'The URL must not contain a user name or password.');
  return u;
}

/**
 * Checks that `url` may be sent to: an http(s) URL whose host resolves, and (unless private
 * hosts are allowed) only to public addresses. Resolves the name; never connects. Throws a
 * FetchError (`invalid_url`, `dns`, `blocked_address`) with a sentence people can read.
 */
export async function checkTarget(
  url: string,
  options: GuardOptions & { timeoutMs?: number },
): Promise<void> {
  const u = parseTarget(url);
  const host = normalizeHost(u.hostname);
  if (!host) throw new FetchError('invalid_url', `The URL ${url} has an invalid host.`);
  const signal = AbortSignal.timeout(options.timeoutMs ?? 5000);
  try {
    await resolveHost(host, policyOf(options), signal);
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw new FetchError('dns', `The host ${host.host} could not be resolved in time.`, { cause: err });
  }
}

/**
 * POSTs `body` to `url` through the address guard and returns the answer, whatever its status
 * (redirects included: they are not followed). Throws a FetchError when no answer came: the
 * guard refused the address (`blocked_address`, before any connection), DNS, refused,
 * TLS, timeout (`options.timeoutMs` for the whole exchange), connection closed.
 */
export async function postGuarded(
  url: string,
  body: string | Buffer,
  options: PostOptions,
): Promise<PostResult> {
  const start = performance.now();
  const u = parseTarget(url);
  const host = normalizeHost(u.hostname);
  if (!host) throw new FetchError('invalid_url', `The URL ${url} has an invalid host.`);
  const policy = policyOf(options);
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException('time limit exceeded', 'TimeoutError')),
    options.timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([timeout.signal, options.signal]) : timeout.signal;
  const maxBytes = options.maxResponseBytes ?? 1024;
  let client: Client | null = null;
  try {
    const resolved = await resolveHost(host, policy, signal);
    const info: ConnectionInfo = { fresh: false, connectMs: null, tlsMs: null, alpn: null };
    client = new Client(u.origin, {
      connect: guardedConnector(resolved, policy, info, signal, options.tlsCa),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 1000,
    });
    const res = await client.request({
      origin: u.origin,
      path: `${u.pathname}${u.search}`,
      method: 'POST',
      headers: options.headers,
      body,
      signal,
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      if (kept < maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - kept));
        kept += Math.min(chunk.length, maxBytes - kept);
      }
      if (kept >= maxBytes) break;
    }
    if (kept >= maxBytes) {
      // the rest is not wanted: closing the body ends the connection
      res.body.on('error', () => undefined);
      res.body.destroy();
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    }
    return {
      status: res.statusCode,
      headers,
      body: Buffer.concat(chunks).toString('utf8'),
      durationMs: Math.round(performance.now() - start),
    };
  } catch (err) {
    if (err instanceof FetchError) throw err;
    if (options.signal?.aborted) throw options.signal.reason;
    if (timeout.signal.aborted) {
      throw new FetchError('timeout', `${u.origin} did not answer within ${seconds(options.timeoutMs)}.`, {
        cause: err,
      });
    }
    throw toFetchError(err, u.href, options.timeoutMs);
  } finally {
    clearTimeout(timer);
    await client?.destroy().catch(() => undefined);
  }
}
