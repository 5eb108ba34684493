// Schedules for tests that run in real time.

/**
 * An hourly cron expression whose runs are half an hour away from now: its minute is 30 past
 * the present one, and a schedule runs at most 5 minutes (its jitter) after its slot. `hourly`
 * runs in the first 5 minutes of each hour, so a test that ran then saw the next slot of some
 * schedules come due while it waited (processes.test.ts counted 3 fetches for 3 of 30 pages in
 * two full runs).
 */
export function hourlyFarFromNow(now = new Date()): string {
  return `${(now.getUTCMinutes() + 30) % 60} * * * *`;
}
