// When a schedule runs (docs/schedules.md), pure: the `every` forms, time zones, jitter, and
// the next run after a given instant. Cron expressions are read by `croner`.
//
// - `every`: `hourly` (minute 0 of every hour), `daily` (00:00), `weekly` (Monday 00:00), or a
//   5-field cron expression (minute hour day-of-month month day-of-week), read in `timezone`.
// - Jitter: each schedule runs a fixed offset after its slot, the same for every slot of that
//   schedule: a hash of its id over [0, min(10 % of its period, 5 min)). 10,000 daily schedules
//   then spread over five minutes instead of hitting at the same second.
// - Catch-up once: the next run is always computed from now — the first slot whose run time
//   (slot + jitter) is after now — so after downtime a due schedule runs once and then goes on
//   from the present, never slot by slot through the missed ones.
import { Cron } from 'croner';
import { EVERY_FORMS } from '../../contract/schedules.js';
import { validationError } from '../../errors.js';

export const EVERY_PRESETS = {
  hourly: '0 * * * *',
  daily: '0 0 * * *',
  weekly: '0 0 * * 1',
} as const;

/** The jitter is at most this much … */
export const MAX_JITTER_MS = 5 * 60_000;
/** … and at most this share of the schedule's period. */
export const JITTER_SHARE = 0.1;

const MAX_EVERY_LENGTH = 120;

/** The cron expression a schedule's `every` stands for. */
export function cronOf(every: string): string {
  return (EVERY_PRESETS as Record<string, string>)[every] ?? every;
}

function cron(every: string, timezone: string): Cron {
  return new Cron(cronOf(every), { timezone, paused: true, mode: '5-part' });
}

/** The canonical name of an IANA time zone, or a 422 under `timezone`. */
export function checkTimezone(timezone: string): string {
  const tz = timezone.trim();
  let resolved: string | undefined;
  try {
    resolved =
      tz === '' ? undefined : new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    resolved = undefined;
  }
  // offsets such as "+02:00" are accepted by Intl but are not IANA names
  if (!resolved || /^[+-]/.test(tz)) {
    throw validationError({
      timezone: [
        `The timezone must be an IANA time zone name such as UTC, Europe/Paris or America/New_York; "${tz.slice(0, 64)}" is not one.`,
      ],
    });
  }
  return resolved;
}

/** The five fields of a cron expression, in order, with what each accepts. */
const CRON_FIELDS = [
  ['minute', '0-59'],
  ['hour', '0-23'],
  ['day of the month', '1-31'],
  ['month', '1-12 or JAN-DEC'],
  ['day of the week', '0-7 or SUN-SAT, 0 and 7 being Sunday'],
] as const;

/** Why a cron expression the library refused is wrong, in our words: the count, or the field. */
function cronFault(e: string): string {
  const parts = e.split(' ');
  if (parts.length === 1) return `"${e}" is not one of them.`;
  if (parts.length !== 5) return `"${e}" has ${parts.length} field${parts.length === 1 ? '' : 's'}, not 5.`;
  for (let i = 0; i < 5; i++) {
    const alone = parts.map((p, j) => (j === i ? p : '*')).join(' ');
    try {
      cron(alone, 'UTC');
    } catch {
      const [name, range] = CRON_FIELDS[i]!;
      return `in "${e}" the ${name} "${parts[i]}" is not valid (${range}).`;
    }
  }
  return `"${e}" is not a valid cron expression.`;
}

/** `every` normalised (a preset, or the cron expression with single spaces), or a 422 under `every`. */
export function checkEvery(every: string, timezone: string): string {
  const e = every.trim().replace(/\s+/g, ' ');
  const invalid = (why: string) =>
    validationError({ every: [`The every field must be ${EVERY_FORMS}; ${why}`] });
  if (e === '' || e.length > MAX_EVERY_LENGTH) throw invalid(e === '' ? 'it is empty.' : 'it is too long.');
  if (e.toLowerCase() in EVERY_PRESETS) return e.toLowerCase();
  if (e.startsWith('@')) throw invalid(`"${e}" is not one of them (use hourly, daily or weekly).`);
  let c: Cron;
  try {
    c = cron(e, timezone);
  } catch {
    // our words, never the library's (its own contradict each other: issue 23 §5)
    throw invalid(cronFault(e));
  }
  if (c.nextRun(new Date()) === null) throw invalid(`"${e}" never runs.`);
  return e;
}

/** A small deterministic hash of the schedule's id in [0, 1). */
function unit(id: number): number {
  let h = Math.imul(id ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 2 ** 32;
}

/** The schedule's fixed offset after each of its slots. */
export function jitterMs(id: number, periodMs: number): number {
  const cap = Math.min(MAX_JITTER_MS, Math.floor(periodMs * JITTER_SHARE));
  return Math.floor(unit(id) * Math.max(0, cap));
}

/**
 * The schedule's next run after `now`: the first slot whose run time (slot + jitter) is later
 * than now. `slot` is the nominal time of the expression; `runAt` is when it runs.
 */
export function nextRun(
  s: { id: number; every: string; timezone: string },
  now: Date,
): { slot: Date; runAt: Date; jitterMs: number } {
  const c = cron(s.every, s.timezone);
  const [a, b] = c.nextRuns(2, now);
  if (!a) throw new Error(`schedule ${s.id}: "${s.every}" never runs`);
  const period = b ? b.getTime() - a.getTime() : 24 * 3600_000;
  const j = jitterMs(s.id, period);
  let slot = c.nextRun(new Date(now.getTime() - j));
  // strictly later than now, so a claimed slot is never due again at once
  if (slot && slot.getTime() + j <= now.getTime()) slot = c.nextRun(new Date(slot.getTime() + 1));
  if (!slot) throw new Error(`schedule ${s.id}: "${s.every}" never runs`);
  return { slot, runAt: new Date(slot.getTime() + j), jitterMs: j };
}
