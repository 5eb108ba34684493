// Timers every layer may use (the services' politeness delays, the job engines' polling).

/** Resolves after `ms`, or at once when the signal is aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

// The shared clock: the time every process of a deployment agrees on — the database server's.
// Leases, schedule claims, a batch's request slots and time budgets are compared across
// processes and hosts, so they are read from here, never from one host's own clock: a host
// whose clock runs 5 minutes ahead would otherwise take others' leases as expired and claim
// schedules early (issue 24 §1). The offset is measured against PostgreSQL at start and every
// minute (src/store/db-clock.ts); on SQLite every process is on one machine and it stays 0.
let sharedOffsetMs = 0;

/** The shared clock's time in epoch ms: this host's clock corrected by the measured offset. */
export function sharedNow(): number {
  return Date.now() + sharedOffsetMs;
}

export function setSharedClockOffset(ms: number): void {
  sharedOffsetMs = Number.isFinite(ms) ? Math.round(ms) : 0;
}
