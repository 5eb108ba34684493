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
 * `subscribe` hears them (the key caches of src/services/accounts/accounts.service.ts drop at once). A
 * message missed while the subscriber is reconnecting is covered by the caches' short life.
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
