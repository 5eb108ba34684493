// Connections kept between fetches (docs/fetcher.md "Connections kept"): a crawl's pages reuse
// their origin's connections instead of opening one a page. Each origin (and guard policy) has
// up to `perOrigin` undici Clients, each carrying one request at a time, so the fetcher knows
// exactly whether a request opened its connection (the page's timings) and whose signal ends
// the connect. A Client connects through the address guard whenever it opens a NEW connection:
// a fresh DNS lookup, every answer checked, the checked IP connected to, the connected address
// checked again (connect.ts) — a name that now resolves elsewhere (DNS rebinding) is caught on
// the next connection. An idle connection closes after `keepAliveMs`; close() closes them all.
import type { KeptConnections } from '../types.js';
import { guardedConnector, resolveHost, type ConnectionInfo, type GuardPolicy } from './connect.js';
import type { NormalizedHost } from './guard.js';
import { Client } from './undici.js';

export interface ConnectionPoolOptions {
  /** connections at most per origin (a batch: its pages in flight + 2) */
  perOrigin: number;
  /** an idle connection is closed after this long, ms (default 4000) */
  keepAliveMs?: number;
  /** headers and body timeouts of a request, ms (the fetch's budget ends it sooner; default 10000) */
  timeoutMs?: number;
  /** origins kept at most: past it, the least recently used idle one is closed (default 32) */
  maxOrigins?: number;
}

/** What a pooled connector learned: the connection's times, and the DNS time of its lookup. */
export interface PooledInfo extends ConnectionInfo {
  dnsMs: number | null;
  /** the signal of the request the Client carries now: it ends that request's connect */
  signal: AbortSignal | null;
}

interface Slot {
  client: Client;
  info: PooledInfo;
  /** made after close(): closed when its request ends */
  oneOff: boolean;
}

interface Origin {
  idle: Slot[];
  busy: Set<Slot>;
  /** requests waiting for a connection: take() hands one over; again() asks anew (after close()) */
  waiters: { take: (slot: Slot) => void; again: () => void }[];
  lastUsed: number;
}

/** One request's use of a kept connection: give it back with release() once the body is read or dropped. */
export interface Lease {
  client: Client;
  info: PooledInfo;
  release(): void;
}

const NEVER = new AbortController().signal;

let nextId = 1;
const ids = new WeakMap<object, number>();
const stringIds = new Map<string, number>();
function idOf(v: object | string | undefined): number {
  if (v === undefined) return 0;
  if (typeof v === 'string') {
    let id = stringIds.get(v);
    if (id === undefined) stringIds.set(v, (id = nextId++));
    return id;
  }
  let id = ids.get(v);
  if (id === undefined) ids.set(v, (id = nextId++));
  return id;
}

export class ConnectionPool implements KeptConnections {
  private readonly origins = new Map<string, Origin>();
  private closed = false;
  private readonly keepAliveMs: number;
  private readonly timeoutMs: number;
  private readonly maxOrigins: number;

  constructor(private readonly o: ConnectionPoolOptions) {
    this.keepAliveMs = o.keepAliveMs ?? 4000;
    this.timeoutMs = o.timeoutMs ?? 10_000;
    this.maxOrigins = o.maxOrigins ?? 32;
  }

  /**
   * A connection to `origin` for one request: an idle one (the most recently used), else a new
   * Client while the origin has fewer than `perOrigin`, else the first one given back. A
   * connection opened under one guard policy is never used under another.
   */
  acquire(
    origin: string,
    host: NormalizedHost,
    policy: GuardPolicy,
    signal: AbortSignal,
    tlsCa?: string | Buffer,
  ): Promise<Lease> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const key = `${policy.allowPrivateHosts ? 1 : 0}.${idOf(policy.classify)}.${idOf(policy.lookup)}.${idOf(tlsCa)} ${origin}`;
    const make = (oneOff: boolean): Slot => {
      const info: PooledInfo = {
        fresh: false,
        connectMs: null,
        tlsMs: null,
        alpn: null,
        dnsMs: null,
        signal: null,
      };
      const client = new Client(origin, {
        // every new connection: DNS through the guard, then the guarded connect
        connect: (opts, callback) => {
          const s = info.signal ?? NEVER;
          resolveHost(host, policy, s).then(
            (resolved) => {
              info.dnsMs = resolved.dnsMs;
              guardedConnector(resolved, policy, info, s, tlsCa)(opts, callback);
            },
            (err: Error) => callback(err, null),
          );
        },
        allowH2: true,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        keepAliveTimeout: this.keepAliveMs,
        keepAliveMaxTimeout: this.keepAliveMs,
      });
      return { client, info, oneOff };
    };
    if (this.closed) return Promise.resolve(this.lease(null, make(true), signal));
    let entry = this.origins.get(key);
    if (!entry) {
      this.evictIdleOrigin();
      entry = { idle: [], busy: new Set(), waiters: [], lastUsed: Date.now() };
      this.origins.set(key, entry);
    }
    entry.lastUsed = Date.now();
    const idle = entry.idle.pop();
    if (idle) return Promise.resolve(this.lease(entry, idle, signal));
    if (entry.busy.size < this.o.perOrigin) return Promise.resolve(this.lease(entry, make(false), signal));
    const e = entry;
    return new Promise<Lease>((resolve, reject) => {
      const waiter = {
        take: (slot: Slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(this.lease(e, slot, signal));
        },
        again: () => {
          signal.removeEventListener('abort', onAbort);
          this.acquire(origin, host, policy, signal, tlsCa).then(resolve, reject);
        },
      };
      const onAbort = () => {
        e.waiters.splice(e.waiters.indexOf(waiter), 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      e.waiters.push(waiter);
    });
  }

  private lease(entry: Origin | null, slot: Slot, signal: AbortSignal): Lease {
    entry?.busy.add(slot);
    slot.info.signal = signal;
    let released = false;
    return {
      client: slot.client,
      info: slot.info,
      release: () => {
        if (released) return;
        released = true;
        slot.info.signal = null;
        entry?.busy.delete(slot);
        if (slot.oneOff || !entry || this.closed) {
          void slot.client.close().catch(() => undefined);
          return;
        }
        entry.lastUsed = Date.now();
        const waiter = entry.waiters.shift();
        if (waiter) {
          entry.busy.add(slot);
          waiter.take(slot);
        } else entry.idle.push(slot);
      },
    };
  }

  /** At the bound of origins: the least recently used one with nothing in flight is closed. */
  private evictIdleOrigin(): void {
    if (this.origins.size < this.maxOrigins) return;
    let oldest: [string, Origin] | null = null;
    for (const kv of this.origins) {
      if (kv[1].busy.size > 0 || kv[1].waiters.length > 0) continue;
      if (!oldest || kv[1].lastUsed < oldest[1].lastUsed) oldest = kv;
    }
    if (!oldest) return;
    this.origins.delete(oldest[0]);
    for (const s of oldest[1].idle) void s.client.close().catch(() => undefined);
  }

  /** Closes every idle connection now, and each busy one when its request ends; later requests get a connection of their own. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closing: Promise<void>[] = [];
    for (const entry of this.origins.values()) {
      for (const s of entry.idle) closing.push(s.client.close().catch(() => undefined));
      entry.idle = [];
      // waiters get a connection of their own (closed after their request)
      for (const w of entry.waiters.splice(0)) w.again();
    }
    this.origins.clear();
    await Promise.all(closing);
  }
}
