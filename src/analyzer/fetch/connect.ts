// DNS resolution and connecting, both through the address guard. The fetcher resolves a host
// itself, checks every answer, and connects to the checked IP (never to the name), keeping the
// name for the Host header and TLS SNI / certificate checks: there is no second lookup, hence
// no DNS-rebinding window. The connected socket's remote address is checked once more.
import { lookup as dnsLookup } from 'node:dns/promises';
import { connect as netConnect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import { blockedError, dnsError } from './errors.js';
import { ipFamily, type NormalizedHost } from './guard.js';

export interface GuardPolicy {
  allowPrivateHosts: boolean;
  /** null = allowed, otherwise the refused range's description */
  classify: (ip: string) => string | null;
  lookup: (hostname: string) => Promise<{ address: string; family: number }[]>;
}

export const defaultLookup = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true });

export interface Resolved {
  host: string;
  addresses: string[];
  /** null for an IP literal */
  dnsMs: number | null;
}

function raceSignal<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** Resolves a host and checks every answer; throws FetchError('dns' | 'blocked_address'). */
export async function resolveHost(
  host: NormalizedHost,
  policy: GuardPolicy,
  signal: AbortSignal,
): Promise<Resolved> {
  const check = (ip: string) => {
    if (policy.allowPrivateHosts) return;
    const reason = policy.classify(ip);
    if (reason !== null) throw blockedError(host.host, ip, reason);
  };
  if (host.family !== 0) {
    check(host.host);
    return { host: host.host, addresses: [host.host], dnsMs: null };
  }
  const t0 = performance.now();
  let answers: { address: string; family: number }[];
  try {
    answers = await raceSignal(policy.lookup(host.host), signal);
  } catch (err) {
    if (signal.aborted) throw err;
    throw dnsError(host.host, err);
  }
  const dnsMs = performance.now() - t0;
  if (answers.length === 0) throw dnsError(host.host);
  // every answer must pass: one refused answer refuses the host
  for (const a of answers) check(a.address);
  return { host: host.host, addresses: answers.map((a) => a.address), dnsMs };
}

/** What a connector learned about the connection it opened most recently. */
export interface ConnectionInfo {
  /** set to true by the connector when it opens a connection; the caller resets it per request */
  fresh: boolean;
  connectMs: number | null;
  tlsMs: number | null;
  alpn: string | null;
}

/**
 * A certificate for another name, as an ordinary failed connect. undici handles the code
 * ERR_TLS_CERT_ALTNAME_INVALID on a branch of its own (for requests that name another TLS
 * servername: they may succeed on a new connection), which fails the waiting request but leaves
 * it counted as running: the Client never drains again, a Pool drops it, and the requests queued
 * behind it are never sent nor ended by their signal. Our connector checks the one host name it
 * was made for, so the error is the origin's: with another code (the cause keeps the original),
 * undici fails every request waiting on that connection and the Client stays usable
 * (docs/fetcher.md "A certificate that fails").
 */
function asConnectError(err: NodeJS.ErrnoException): Error {
  if (err.code !== 'ERR_TLS_CERT_ALTNAME_INVALID') return err;
  return Object.assign(new Error(err.message, { cause: err }), { code: 'HOSTNAME_MISMATCH' });
}

const RETRYABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ETIMEDOUT']);
/** With more addresses left to try, one attempt may take this long before the next is tried. */
const ATTEMPT_TIMEOUT_MS = 2500;

/**
 * An undici connector that connects to the resolved (and checked) addresses in order, and
 * records connect and TLS times in `info`.
 */
export function guardedConnector(
  resolved: Resolved,
  policy: GuardPolicy,
  info: ConnectionInfo,
  signal: AbortSignal,
  ca?: string | Buffer,
): buildConnector.connector {
  return (opts, callback) => {
    const https = opts.protocol === 'https:';
    const port = Number(opts.port) || (https ? 443 : 80);
    const start = performance.now();
    let done = false;
    const finish = (err: Error | null, socket: Socket | TLSSocket | null) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      if (err) callback(err, null);
      else callback(null, socket!);
    };
    let current: Socket | null = null;
    const onAbort = () => {
      current?.destroy();
      finish(signal.reason instanceof Error ? signal.reason : new Error('aborted'), null);
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });

    const attempt = (i: number) => {
      const ip = resolved.addresses[i]!;
      const refused = policy.allowPrivateHosts ? null : policy.classify(ip);
      if (refused !== null) return finish(blockedError(resolved.host, ip, refused), null);
      const sock = netConnect({ host: ip, port, noDelay: true });
      current = sock;
      const more = i + 1 < resolved.addresses.length;
      const timer = more
        ? setTimeout(() => {
            sock.destroy();
            attempt(i + 1);
          }, ATTEMPT_TIMEOUT_MS)
        : null;
      const onError = (err: NodeJS.ErrnoException) => {
        if (timer) clearTimeout(timer);
        if (done) return;
        if (more && RETRYABLE.has(err.code ?? '')) return attempt(i + 1);
        finish(err, null);
      };
      sock.once('error', onError);
      sock.once('connect', () => {
        if (timer) clearTimeout(timer);
        // the address actually connected to goes through the guard again
        const remote = sock.remoteAddress ?? '';
        const reason = policy.allowPrivateHosts ? null : policy.classify(remote);
        if (reason !== null) {
          sock.removeListener('error', onError);
          sock.destroy();
          return finish(blockedError(resolved.host, remote, reason), null);
        }
        info.fresh = true;
        info.connectMs = performance.now() - start;
        info.tlsMs = null;
        info.alpn = null;
        if (!https) {
          sock.removeListener('error', onError);
          return finish(null, sock);
        }
        const tlsStart = performance.now();
        const servername = ipFamily(resolved.host) ? undefined : resolved.host;
        // node:tls (and crypto with it) loaded at the first https page, not by every start
        const tlsSock = process.getBuiltinModule('node:tls').connect({
          socket: sock,
          host: resolved.host,
          ...(servername ? { servername } : {}),
          ALPNProtocols: ['h2', 'http/1.1'],
          ...(ca ? { ca } : {}),
        });
        current = tlsSock;
        sock.removeListener('error', onError);
        tlsSock.once('error', (err) => finish(asConnectError(err), null));
        tlsSock.once('secureConnect', () => {
          info.tlsMs = performance.now() - tlsStart;
          info.alpn = typeof tlsSock.alpnProtocol === 'string' ? tlsSock.alpnProtocol : null;
          finish(null, tlsSock);
        });
      });
    };
    attempt(0);
  };
}
