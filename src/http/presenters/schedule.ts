// Schedule → API JSON.
import type { ListedSchedule, Schedule } from '../../services/schedules/types.js';

export function presentSchedule(s: Schedule, publicUrl: string) {
  const report = `${publicUrl}/api/v1/reports/${s.reportId}`;
  return {
    id: s.id,
    report_id: s.reportId,
    every: s.every,
    cron: s.cron,
    timezone: s.timezone,
    render: s.render,
    next_run_at: s.nextRunAt,
    jitter_ms: s.jitterMs,
    running: s.running,
    last_run_at: s.lastRunAt,
    last_status: s.lastStatus,
    last_error: s.lastError,
    last_run_number: s.lastRunNumber,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    links: { self: `${report}/schedule`, report, runs: `${report}/runs` },
  };
}

export function presentListedSchedule(s: ListedSchedule, publicUrl: string) {
  const { links, ...rest } = presentSchedule(s, publicUrl);
  return { ...rest, url: s.url, links };
}
