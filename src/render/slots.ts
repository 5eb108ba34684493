// The pool's slots: at most `concurrency` pages (or PDFs) in the shared browser at once, the
// others waiting in order; and the abort plumbing a visit and a print share.

/** A counting semaphore: at most `limit` holders; the others wait in order. */
export class Slots {
  active = 0;
  maxActive = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly limit: number) {}
  /** `signal`: a waiter that is aborted leaves the line (rejects with the reason) and holds no slot */
  async acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortReason(signal);
    if (this.active < this.limit) {
      this.active++;
    } else {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const i = this.waiting.indexOf(take);
          if (i !== -1) this.waiting.splice(i, 1);
          reject(abortReason(signal!));
        };
        const take = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiting.push(take);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    this.maxActive = Math.max(this.maxActive, this.active);
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
  get queued(): number {
    return this.waiting.length;
  }
}

const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('the render was stopped');

/**
 * A race against `signal`: the returned function settles its promise's way, or rejects with
 * the signal's reason (or `stopped`) once the signal aborts. A promise that loses is silenced.
 */
export function racer(signal: AbortSignal, stopped: string): <T>(p: Promise<T>) => Promise<T> {
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(signal.reason instanceof Error ? signal.reason : new Error(stopped));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
  aborted.catch(() => undefined);
  return <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => undefined);
    return Promise.race([p, aborted]);
  };
}
