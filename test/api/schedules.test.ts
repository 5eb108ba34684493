// Schedules through the API, over every dialect: PUT (201 new, 200 replaced), GET, DELETE on
// /reports/{id}/schedule and the paginated /schedules list with next runs; another user's
// report is 404; an invalid `every` or `timezone` is a 422 naming the field and the allowed
// forms; deleting a report removes its schedule. Every response is checked against the
// OpenAPI document (harness.ts). The runs themselves: test/schedules/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachDialect, withBody } from '../helpers/api-harness.js';

interface ScheduleJson {
  id: number;
  report_id: number;
  every: string;
  cron: string;
  timezone: string;
  next_run_at: string;
  jitter_ms: number;
  running: boolean;
  last_status: string | null;
  url?: string;
  links: { self: string; report: string; runs: string };
}

forEachDialect('schedules API', (h) => {
  const ids: number[] = [];
  const auth = () => h().alice.auth;

  test('PUT creates (201), PUT again replaces (200), GET shows it with its next run', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await h().request(
        withBody('POST', '/api/v1/reports', auth(), { url: `http://canned.test/s-${i}` }),
      );
      assert.equal(res.statusCode, 201, res.body);
      ids.push((res.json() as { data: { id: number } }).data.id);
    }
    const id = ids[0]!;
    let res = await h().request(
      withBody('PUT', `/api/v1/reports/${id}/schedule`, auth(), { every: 'daily', timezone: 'Europe/Paris' }),
    );
    assert.equal(res.statusCode, 201, res.body);
    const created = (res.json() as { data: ScheduleJson }).data;
    assert.equal(created.report_id, id);
    assert.equal(created.every, 'daily');
    assert.equal(created.cron, '0 0 * * *');
    assert.equal(created.timezone, 'Europe/Paris');
    assert.equal(created.running, false);
    assert.equal(created.last_status, null);
    assert.ok(created.jitter_ms >= 0 && created.jitter_ms < 5 * 60_000);
    const next = new Date(created.next_run_at).getTime();
    assert.ok(next > Date.now() && next <= Date.now() + 24 * 3600_000 + 5 * 60_000, created.next_run_at);
    // midnight in Paris, plus the jitter
    const slot = new Date(next - created.jitter_ms);
    const paris = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Paris',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    }).format(slot);
    assert.equal(paris, '00:00');
    assert.equal(created.links.self, `http://pagegrade.test:8080/api/v1/reports/${id}/schedule`);

    res = await h().request(
      withBody('PUT', `/api/v1/reports/${id}/schedule`, auth(), { every: '30 6 * * 1-5' }, 'json'),
    );
    assert.equal(res.statusCode, 200, res.body);
    const replaced = (res.json() as { data: ScheduleJson }).data;
    assert.equal(replaced.id, created.id, 'the same schedule');
    assert.equal(replaced.cron, '30 6 * * 1-5');
    assert.equal(replaced.timezone, 'UTC', 'timezone defaults to UTC');

    res = await h().request({ url: `/api/v1/reports/${id}/schedule`, headers: auth() });
    assert.equal(res.statusCode, 200);
    assert.deepEqual((res.json() as { data: ScheduleJson }).data, replaced);
  });

  test('GET /schedules lists them, newest first, paginated, with URL and next run', async () => {
    for (const id of ids.slice(1)) {
      const res = await h().request(
        withBody('PUT', `/api/v1/reports/${id}/schedule`, auth(), { every: 'hourly' }),
      );
      assert.equal(res.statusCode, 201, res.body);
    }
    const res = await h().request({ url: '/api/v1/schedules?per_page=10', headers: auth() });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { data: ScheduleJson[]; meta: { total: number } };
    assert.equal(body.meta.total, 3);
    assert.deepEqual(
      body.data.map((s) => s.report_id),
      [...ids].reverse(),
    );
    assert.ok(
      body.data.every((s) => typeof s.next_run_at === 'string' && s.url!.startsWith('http://canned.test/s-')),
    );
    const page2 = await h().request({ url: '/api/v1/schedules?per_page=10&page=2', headers: auth() });
    assert.equal((page2.json() as { data: unknown[] }).data.length, 0);
    // bob sees none of them
    const bob = await h().request({ url: '/api/v1/schedules', headers: h().bob.auth });
    assert.equal((bob.json() as { meta: { total: number } }).meta.total, 0);
  });

  test("another user's report is 404 on every method; a report without a schedule is 404", async () => {
    const id = ids[0]!;
    for (const opts of [
      withBody('PUT', `/api/v1/reports/${id}/schedule`, h().bob.auth, { every: 'daily' }),
      { method: 'GET' as const, url: `/api/v1/reports/${id}/schedule`, headers: h().bob.auth },
      { method: 'DELETE' as const, url: `/api/v1/reports/${id}/schedule`, headers: h().bob.auth },
    ]) {
      const res = await h().request(opts);
      assert.equal(res.statusCode, 404, `${opts.method}: ${res.body}`);
      assert.equal((res.json() as { message: string }).message, 'No such report.');
    }
    const res = await h().request({ url: '/api/v1/reports/999999/schedule', headers: auth() });
    assert.equal(res.statusCode, 404);
  });

  test('422 for an invalid every or timezone, naming the field and the allowed forms', async () => {
    const id = ids[0]!;
    const put = (fields: Record<string, string>) =>
      h().request(withBody('PUT', `/api/v1/reports/${id}/schedule`, auth(), fields));
    for (const every of ['fortnightly', '61 * * * *', '0 0 * * * *', '0 0 31 2 *', '@daily']) {
      const res = await put({ every });
      assert.equal(res.statusCode, 422, `${every}: ${res.body}`);
      const body = res.json() as { errors: Record<string, string[]> };
      assert.deepEqual(Object.keys(body.errors), ['every']);
      assert.match(body.errors.every![0]!, /hourly, daily, weekly, or a cron expression of 5 fields/);
      // our words only, never the cron library's (issue 23 §5)
      assert.doesNotMatch(
        body.errors.every![0]!,
        /five, six, or seven|5-part|configuration|Invalid value|CronPattern/,
      );
    }
    const says = async (every: string) =>
      ((await put({ every })).json() as { errors: Record<string, string[]> }).errors.every![0]!;
    const FORMS =
      'The every field must be hourly, daily, weekly, or a cron expression of 5 fields (minute hour day-of-month month day-of-week), e.g. "30 6 * * 1-5"';
    assert.equal(await says('fortnightly'), `${FORMS}; "fortnightly" is not one of them.`);
    assert.equal(await says('0 0 * * * *'), `${FORMS}; "0 0 * * * *" has 6 fields, not 5.`);
    assert.equal(await says('0 6 * *'), `${FORMS}; "0 6 * *" has 4 fields, not 5.`);
    assert.equal(await says('61 * * * *'), `${FORMS}; in "61 * * * *" the minute "61" is not valid (0-59).`);
    assert.equal(
      await says('0 6 * * MON-XYZ'),
      `${FORMS}; in "0 6 * * MON-XYZ" the day of the week "MON-XYZ" is not valid (0-7 or SUN-SAT, 0 and 7 being Sunday).`,
    );
    assert.equal(await says('0 0 31 2 *'), `${FORMS}; "0 0 31 2 *" never runs.`);
    const res = await put({ every: 'daily', timezone: 'Mars/Base' });
    assert.equal(res.statusCode, 422);
    const body = res.json() as { errors: Record<string, string[]> };
    assert.deepEqual(Object.keys(body.errors), ['timezone']);
    assert.match(body.errors.timezone![0]!, /IANA time zone name such as UTC, Europe\/Paris/);
    const missing = await h().request(withBody('PUT', `/api/v1/reports/${id}/schedule`, auth(), {}));
    assert.equal(missing.statusCode, 422);
    // the schedule was left as it was
    const shown = await h().request({ url: `/api/v1/reports/${id}/schedule`, headers: auth() });
    assert.equal((shown.json() as { data: ScheduleJson }).data.cron, '30 6 * * 1-5');
  });

  test('DELETE removes it (then 404); deleting a report removes its schedule', async () => {
    const [a, b] = ids;
    let res = await h().request({ method: 'DELETE', url: `/api/v1/reports/${a}/schedule`, headers: auth() });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { report_id: a, object: 'schedule', deleted: true });
    res = await h().request({ method: 'DELETE', url: `/api/v1/reports/${a}/schedule`, headers: auth() });
    assert.equal(res.statusCode, 404);
    assert.equal((res.json() as { message: string }).message, 'This report has no schedule.');
    res = await h().request({ url: `/api/v1/reports/${a}/schedule`, headers: auth() });
    assert.equal(res.statusCode, 404);

    res = await h().request({ method: 'DELETE', url: `/api/v1/reports/${b}`, headers: auth() });
    assert.equal(res.statusCode, 200, res.body);
    const list = await h().request({ url: '/api/v1/schedules', headers: auth() });
    assert.deepEqual(
      (list.json() as { data: ScheduleJson[] }).data.map((s) => s.report_id),
      [ids[2]],
    );
  });
});
