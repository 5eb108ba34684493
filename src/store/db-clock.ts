// The shared clock's offset (src/timers.ts sharedNow), measured against the database server:
// on PostgreSQL the best of three round trips (the one with the shortest round trip, its
// server time taken at the trip's midpoint), at start and then every minute; on SQLite every
// process shares one machine's clock and the offset stays 0.
import { sql } from 'kysely';
import { setSharedClockOffset } from '../timers.js';
import type { Db, Dialect } from './database.js';

const RESYNC_MS = 60_000;

/** The database server's clock minus this host's (ms), or null on SQLite. */
export async function databaseClockOffset(db: Db, dialect: Dialect): Promise<number | null> {
  if (dialect !== 'postgres') return null;
  let best: { rtt: number; offset: number } | null = null;
  for (let i = 0; i < 3; i++) {
    const t0 = Date.now();
    const { rows } = await sql<{ ms: number | string }>`
      select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`.execute(db);
    const t1 = Date.now();
    const offset = Number(rows[0]!.ms) - (t0 + t1) / 2;
    if (!best || t1 - t0 < best.rtt) best = { rtt: t1 - t0, offset };
  }
  return best!.offset;
}

export interface SharedClock {
  /** the offset now in use (ms) */
  offsetMs(): number;
  stop(): void;
}

/** A host clock this far from the database's is said in the log (the leases are safe either way). */
const WARN_MS = 1000;

/**
 * Measures the offset now (awaited: the workers start on the database's time) and every minute
 * after; a failed measurement keeps the last offset. A host clock more than a second off is
 * logged, once and again when the offset moves by more than a second.
 */
export async function keepSharedClock(
  handle: { db: Db; dialect: Dialect },
  log: { warn(o: object, m?: string): void } | null = null,
): Promise<SharedClock> {
  let current = 0;
  let said: number | null = null;
  const measure = async () => {
    try {
      const offset = await databaseClockOffset(handle.db, handle.dialect);
      if (offset === null) return;
      current = Math.round(offset);
      setSharedClockOffset(current);
      if (Math.abs(current) > WARN_MS && (said === null || Math.abs(current - said) > WARN_MS)) {
        said = current;
        const s = (Math.abs(current) / 1000).toFixed(1);
        log?.warn(
          { clock_offset_ms: current },
          `this host's clock is ${s} s ${current < 0 ? 'ahead of' : 'behind'} the database's: leases, schedules and crawl timing use the database's clock (set up NTP on this host)`,
        );
      }
    } catch {
      // the database is unreachable now: keep the last offset
    }
  };
  await measure();
  const timer = handle.dialect === 'postgres' ? setInterval(() => void measure(), RESYNC_MS) : null;
  timer?.unref();
  return {
    offsetMs: () => current,
    stop: () => {
      if (timer) clearInterval(timer);
    },
  };
}
