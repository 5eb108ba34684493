// The optional Redis connection that lets several processes share per-key state: the API
// rate limit (@fastify/rate-limit's `redis` option) and the report page's password-attempt
// throttle. Without REDIS_URL both stay in each process's memory.
//
// Every key goes under config.redisPrefix (PAGEGRADE_REDIS_PREFIX, default `pagegrade:`)
// through ioredis's `keyPrefix`, so deployments (and test runs) sharing one Redis never see
// each other's counters. ioredis applies the prefix to scripts' KEYS too (the rate limit
// plugin's Lua script), not to SCAN/KEYS patterns.
import { Redis } from 'ioredis';
import type { Config } from '../config.js';

export type RedisClient = Redis;

export interface CreateRedisOptions {
  /** ms to wait for a connection (default 2000) */
  connectTimeoutMs?: number;
  /** a name shown by CLIENT LIST (default `pagegrade`) */
  connectionName?: string;
  /** called on connection errors (ioredis keeps reconnecting); default: ignored, as commands report their own */
  onError?: (err: Error) => void;
}

/**
 * An ioredis client for config.redisUrl, or null when no REDIS_URL is set. The client
 * connects in the background and reconnects by itself; a command fails fast (after one
 * retry) while Redis is unreachable instead of queueing forever, so a request never hangs on
 * it. Call `pingRedis` at boot to stop early on a wrong URL, `closeRedis` at shutdown.
 */
export function createRedis(
  config: Pick<Config, 'redisUrl' | 'redisPrefix'>,
  options: CreateRedisOptions = {},
): RedisClient | null {
  if (!config.redisUrl) return null;
  const client = new Redis(config.redisUrl, {
    keyPrefix: config.redisPrefix,
    connectionName: options.connectionName ?? 'pagegrade',
    connectTimeout: options.connectTimeoutMs ?? 2000,
    // the settings @fastify/rate-limit recommends: fail a command quickly while disconnected
    maxRetriesPerRequest: 1,
    // back off up to 2 s between reconnection attempts, forever
    retryStrategy: (times) => Math.min(times * 100, 2000),
  });
  // without a listener ioredis prints every reconnection failure to the console
  client.on('error', options.onError ?? (() => {}));
  return client;
}

/** Waits until Redis answers PING; throws (with the URL's host, never its password) when it cannot. */
export async function pingRedis(client: RedisClient, timeoutMs = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.ping(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (err) {
    const { host, port } = client.options;
    throw new Error(`Redis at ${host ?? '?'}:${port ?? '?'} is unreachable: ${(err as Error).message}`, {
      cause: err,
    });
  } finally {
    clearTimeout(timer);
  }
}

/** Closes the connection gracefully (QUIT), or at once when it is not connected. */
export async function closeRedis(client: RedisClient | null): Promise<void> {
  if (!client) return;
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // fall through to disconnect
    }
  }
  client.disconnect();
}

/** The pub/sub channel of API key changes (ioredis' keyPrefix does not apply to channels). */
export const keysChangedChannel = (prefix: string): string => `${prefix}keys:changed`;

/**
 * API key changes (revocations) between processes, on Redis pub/sub: `publish` tells the others,
 * `subscribe` hears them (the key caches of src/services/accounts/accounts.service.ts drop). A
 * hint only: the caches follow the database's own signal (src/store/key-changes.ts), which also
 * carries the changes nobody publishes (psql, a CLI without REDIS_URL) and those missed here.
 */
export function createKeyBus(
  client: RedisClient,
  config: Pick<Config, 'redisPrefix'>,
): { publish(): Promise<void>; subscribe(onChange: () => void): void; close(): Promise<void> } {
  const channel = keysChangedChannel(config.redisPrefix);
  const listeners: (() => void)[] = [];
  const sub = client.duplicate();
  sub.on('error', () => {});
  sub.on('message', (ch: string) => {
    if (ch === channel) for (const l of listeners) l();
  });
  void sub.subscribe(channel).catch(() => {});
  return {
    async publish() {
      await client.publish(channel, '1');
    },
    subscribe(onChange) {
      listeners.push(onChange);
    },
    async close() {
      await sub.quit().catch(() => sub.disconnect());
    },
  };
}

/** The pub/sub channel of live changes (a batch's progress): `<prefix>changes`. */
export const changesChannel = (prefix: string): string => `${prefix}changes`;

/**
 * Live changes between processes, on Redis pub/sub (src/services/shared/changes.ts): a worker
 * publishes that a batch moved, the process serving its events stream hears it. Also heard
 * locally at once, whether Redis delivers or not.
 */
export function createChangeBus(
  client: RedisClient,
  config: Pick<Config, 'redisPrefix'>,
): {
  publish(topic: string): void;
  subscribe(topic: string, onChange: () => void): () => void;
  close(): Promise<void>;
} {
  const channel = changesChannel(config.redisPrefix);
  const listeners = new Map<string, Set<() => void>>();
  const hear = (topic: string) => {
    for (const l of [...(listeners.get(topic) ?? [])]) l();
  };
  const sub = client.duplicate();
  sub.on('error', () => {});
  sub.on('message', (ch: string, topic: string) => {
    if (ch === channel) hear(topic);
  });
  void sub.subscribe(channel).catch(() => {});
  return {
    publish(topic) {
      hear(topic);
      void client.publish(channel, topic).catch(() => {});
    },
    subscribe(topic, onChange) {
      const set = listeners.get(topic) ?? new Set();
      set.add(onChange);
      listeners.set(topic, set);
      return () => {
        set.delete(onChange);
        if (set.size === 0) listeners.delete(topic);
      };
    },
    async close() {
      await sub.quit().catch(() => sub.disconnect());
    },
  };
}
