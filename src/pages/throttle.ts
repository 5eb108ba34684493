// Wrong-password throttling. The counting lives behind AttemptStore so that a shared store
// (Redis, when config.redisUrl is set) can replace the in-memory one without touching the
// pages: a fixed window per key, counted with `hit`, read with `peek`.

export interface AttemptCount {
  /** attempts recorded in the current window */
  count: number;
  /** milliseconds until the window ends (and the count starts again at 0) */
  resetMs: number;
}

export interface AttemptStore {
  /** records one attempt under `key`; a new window of `windowMs` starts with the first one */
  hit(key: string, windowMs: number): Promise<AttemptCount>;
  /** the current window's count without recording, or null when there is none */
  peek(key: string): Promise<AttemptCount | null>;
  /** forgets `key` */
  reset(key: string): Promise<void>;
  close?(): Promise<void>;
}

/** One process's memory: fine for a single instance; expired windows are swept as it goes. */
export class MemoryAttemptStore implements AttemptStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000 && this.windows.size < 10_000) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }

  async hit(key: string, windowMs: number): Promise<AttemptCount> {
    const now = this.now();
    this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return { count: w.count, resetMs: w.resetAt - now };
  }

  async peek(key: string): Promise<AttemptCount | null> {
    const now = this.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) return null;
    return { count: w.count, resetMs: w.resetAt - now };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }
}

export interface ThrottleRule {
  /** attempts allowed in a window; the next one is refused until the window ends */
  limit: number;
  windowMs: number;
}

/** Wrong report passwords: 5 a minute per report and client IP. */
export const PASSWORD_RULE: ThrottleRule = { limit: 5, windowMs: 60_000 };
/** Wrong API keys at /login: 10 a minute per client IP. */
export const LOGIN_RULE: ThrottleRule = { limit: 10, windowMs: 60_000 };

/** Wrong passwords for one account at /login: 10 in 15 minutes, whatever the address. */
export const ACCOUNT_RULE: ThrottleRule = { limit: 10, windowMs: 15 * 60_000 };
/** Wrong second-factor codes: 5 in 5 minutes per person (and the address's LOGIN_RULE). */
export const TOTP_RULE: ThrottleRule = { limit: 5, windowMs: 5 * 60_000 };
/** Reset-link requests and sign-ups: 5 in 15 minutes per client IP. */
export const RESET_RULE: ThrottleRule = { limit: 5, windowMs: 15 * 60_000 };

/** Seconds to wait when `key` has used up its attempts, else null. */
export async function blockedFor(
  store: AttemptStore,
  key: string,
  rule: ThrottleRule,
): Promise<number | null> {
  const c = await store.peek(key);
  if (c === null || c.count < rule.limit) return null;
  return Math.max(1, Math.ceil(c.resetMs / 1000));
}
