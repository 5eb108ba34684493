// The password-attempt throttle's counts in Redis, shared by every process of a deployment
// (used when REDIS_URL is set). Same fixed-window semantics as MemoryAttemptStore: the first
// attempt starts a window of `windowMs`; later attempts count in it until it expires.
// Keys are `<PAGEGRADE_REDIS_PREFIX>attempts:<key>` (the client's keyPrefix adds the first part).
import type { Redis } from 'ioredis';
import type { AttemptCount, AttemptStore } from './throttle.js';

// INCR and PEXPIRE in one step, so a window can never be left without an expiry.
const HIT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

const PEEK = `
local count = redis.call('GET', KEYS[1])
if not count then return nil end
return {tonumber(count), redis.call('PTTL', KEYS[1])}
`;

export class RedisAttemptStore implements AttemptStore {
  /** `client` is shared and owned by the caller (closed by the server, not here). */
  constructor(
    private readonly client: Redis,
    private readonly namespace = 'attempts:',
  ) {}

  async hit(key: string, windowMs: number): Promise<AttemptCount> {
    const [count, ttl] = (await this.client.eval(
      HIT,
      1,
      this.namespace + key,
      Math.max(1, Math.round(windowMs)),
    )) as [number, number];
    return { count, resetMs: Math.max(0, ttl) };
  }

  async peek(key: string): Promise<AttemptCount | null> {
    const out = (await this.client.eval(PEEK, 1, this.namespace + key)) as [number, number] | null;
    if (!out) return null;
    const [count, ttl] = out;
    // -2: expired between GET and PTTL; -1 cannot happen (every window gets an expiry)
    if (ttl === -2) return null;
    return { count, resetMs: Math.max(0, ttl) };
  }

  async reset(key: string): Promise<void> {
    await this.client.del(this.namespace + key);
  }
}
