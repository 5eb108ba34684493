// Report history through the API, over every dialect: a fixture page that changes between runs
// (its title removed, an image added without alt, the page grown past the size limit) gives
// exactly the expected diff at each step; runs are listed newest first and paginated; a run's
// link stays stable; failed re-audits are runs with their reason; retention keeps the newest N.
// Every response is checked against the OpenAPI document (harness.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServices } from '../../src/services/index.js';
import { TIMING_NOISE } from '../../src/analyzer/diff.js';
import { goodPage, html } from '../helpers/fixture-server.js';
import {
  PUBLIC_URL,
  TEST_SERVICES_CONFIG,
  forEachDialect,
  testAnalyze,
  withBody,
} from '../helpers/api-harness.js';
import { embeddedQueue } from '../../src/jobs/index.js';

type State = 'passed' | 'failed' | 'inconclusive' | 'absent';
interface CheckChangeJson {
  id: string;
  priority: string;
  from: State;
  to: State;
  from_value?: unknown;
  to_value?: unknown;
  message: string;
}
interface RunJson {
  id: number;
  report_id: number;
  status: 'completed' | 'failed';
  current: boolean;
  source: string | null;
  generated_at: string;
  final_url: string | null;
  result: string | null;
  score: number | null;
  categories: Record<string, { score: number }> | null;
  error: string | null;
  results?: Record<string, { passed: boolean | null; value?: unknown }> | null;
  page?: { sizes: { html_bytes: number } } | null;
  links: { self: string; report: string };
}
interface DiffJson {
  report_id: number;
  from: RunJson;
  to: RunJson;
  changed: boolean;
  regression: boolean;
  score: { from: number; to: number; delta: number };
  result: { from: string; to: string; change: string };
  categories: Record<string, { from: number; to: number; delta: number }>;
  checks: Record<'newly_failed' | 'newly_passed' | 'newly_inconclusive' | 'value_changed', CheckChangeJson[]>;
  page: { fact: string; from: unknown; to: unknown }[];
  links: { self: string; report: string };
}
interface ListJson<T> {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: { current_page: number; last_page: number; per_page: number; total: number; from: number | null };
}

/** The four versions of the page: each step changes one thing. */
function versions(origin: string) {
  const v1 = goodPage(origin);
  const v2 = v1.replace(/<title>[^<]*<\/title>\n/, '');
  assert.notEqual(v2, v1);
  const v3 = v2.replace(
    '</body>',
    '<img src="/garden.webp" width="400" height="300" loading="lazy">\n</body>',
  );
  const v4 = v3.replace(
    '</body>',
    `<p>${'More about balcony gardening and herbs. '.repeat(9000)}</p>\n</body>`,
  );
  return [v1, v2, v3, v4];
}
const bytes = (s: string) => Buffer.byteLength(s);

/** [id, from, to] of each list, with the measured durations left out (checked on their own). */
function shape(d: DiffJson): Record<keyof DiffJson['checks'], [string, State, State][]> {
  const pick = (list: CheckChangeJson[]) =>
    list.filter((c) => c.id !== 'load_time').map((c): [string, State, State] => [c.id, c.from, c.to]);
  return {
    newly_failed: pick(d.checks.newly_failed),
    newly_passed: pick(d.checks.newly_passed),
    newly_inconclusive: pick(d.checks.newly_inconclusive),
    value_changed: pick(d.checks.value_changed),
  };
}

/** The page facts without the timings; timings that are listed moved past the noise floor. */
function facts(d: DiffJson): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const f of d.page) {
    if (f.fact.startsWith('timings.')) {
      if (typeof f.from === 'number' && typeof f.to === 'number') {
        const delta = Math.abs(f.to - f.from);
        assert.ok(delta >= TIMING_NOISE.ms && delta >= TIMING_NOISE.ratio * f.from, JSON.stringify(f));
      }
      continue;
    }
    out[f.fact] = [f.from, f.to];
  }
  const loadTime = d.checks.value_changed.find((c) => c.id === 'load_time');
  if (loadTime) {
    const delta = Math.abs(Number(loadTime.to_value) - Number(loadTime.from_value));
    assert.ok(delta >= TIMING_NOISE.ms, JSON.stringify(loadTime));
  }
  return out;
}

const change = (d: DiffJson, list: keyof DiffJson['checks'], id: string) => {
  const c = d.checks[list].find((x) => x.id === id);
  assert.ok(c, `${id} in ${list}`);
  return c;
};

forEachDialect('history API', (h) => {
  let id: number;
  let pages: string[];
  const path = '/history';
  const auth = () => h().alice.auth;
  const get = async <T>(url: string, status = 200): Promise<T> => {
    const res = await h().request({ url, headers: auth() });
    assert.equal(res.statusCode, status, `${url}: ${res.body}`);
    return res.json() as T;
  };
  const reaudit = async (status = 200) => {
    const res = await h().request(withBody('PATCH', `/api/v1/reports/${id}`, auth(), { results: 1 }));
    assert.equal(res.statusCode, status, res.body);
    return res;
  };
  const diff = (q = '') => get<{ data: DiffJson }>(`/api/v1/reports/${id}/diff${q}`).then((r) => r.data);

  test('a first run: listed as the current run, nothing to compare it with', async () => {
    const origin = h().site('hist');
    pages = versions(origin);
    h().fixture.route(path, html(pages[0]!));
    const res = await h().request(withBody('POST', '/api/v1/reports', auth(), { url: `${origin}${path}` }));
    assert.equal(res.statusCode, 201, res.body);
    const report = (
      res.json() as { data: { id: number; score: number; result: string; generated_at: string } }
    ).data;
    id = report.id;
    const runs = await get<ListJson<RunJson>>(`/api/v1/reports/${id}/runs`);
    assert.equal(runs.meta.total, 1);
    assert.deepEqual(runs.data[0], {
      id: 1,
      report_id: id,
      status: 'completed',
      current: true,
      source: null,
      batch_id: null,
      generated_at: report.generated_at,
      final_url: `${origin}${path}`,
      result: report.result,
      score: report.score,
      categories: runs.data[0]!.categories,
      error: null,
      links: {
        self: `${PUBLIC_URL}/api/v1/reports/${id}/runs/1`,
        report: `${PUBLIC_URL}/api/v1/reports/${id}`,
      },
    });
    const none = await get<{ errors: Record<string, string[]> }>(`/api/v1/reports/${id}/diff`, 422);
    assert.match(none.errors.from![0]!, /no completed run before run 1/);
  });

  test('the title removed: title newly failed (a regression), content_keywords no longer judged', async () => {
    h().fixture.route(path, html(pages[1]!));
    await reaudit();
    const d = await diff();
    assert.equal(d.from.id, 1);
    assert.equal(d.to.id, 2);
    assert.equal(d.to.current, true);
    assert.equal(d.to.source, 'api');
    assert.deepEqual(shape(d), {
      newly_failed: [['title', 'passed', 'failed']],
      newly_passed: [],
      newly_inconclusive: [['content_keywords', 'passed', 'inconclusive']],
      value_changed: [
        ['page_size', 'passed', 'passed'],
        ['dom_size', 'passed', 'passed'],
        ['text_html_ratio', 'passed', 'passed'],
      ],
    });
    const title = change(d, 'newly_failed', 'title');
    assert.equal(title.priority, 'high');
    assert.equal(title.from_value, 'Fixture Gardening Guide for Small Balconies');
    assert.equal(title.to_value, null);
    assert.equal(title.message, 'The page has no <title> element.');
    assert.deepEqual(
      [change(d, 'value_changed', 'page_size').from_value, change(d, 'value_changed', 'page_size').to_value],
      [bytes(pages[0]!), bytes(pages[1]!)],
    );
    const dom = change(d, 'value_changed', 'dom_size');
    assert.equal(Number(dom.from_value) - Number(dom.to_value), 1, 'one element fewer');
    assert.deepEqual(facts(d), {
      'sizes.transfer_bytes': [bytes(pages[0]!), bytes(pages[1]!)],
      'sizes.html_bytes': [bytes(pages[0]!), bytes(pages[1]!)],
    });
    assert.ok(d.score.delta < 0);
    assert.ok(d.categories.seo!.delta < 0);
    assert.deepEqual(
      [d.categories.performance!.delta, d.categories.security!.delta, d.categories.miscellaneous!.delta],
      [0, 0, 0],
    );
    assert.equal(d.changed, true);
    assert.equal(d.regression, true, 'a high-priority check newly failed');
    assert.deepEqual(d.links, {
      self: `${PUBLIC_URL}/api/v1/reports/${id}/diff?from=1&to=2`,
      report: `${PUBLIC_URL}/api/v1/reports/${id}`,
    });
  });

  test('an image added without alt: image_keywords newly failed, one more image requested', async () => {
    h().fixture.route(path, html(pages[2]!));
    await reaudit();
    const d = await diff();
    assert.deepEqual([d.from.id, d.to.id], [2, 3]);
    assert.deepEqual(shape(d), {
      newly_failed: [['image_keywords', 'passed', 'failed']],
      newly_passed: [],
      newly_inconclusive: [],
      value_changed: [
        ['http_requests', 'passed', 'passed'],
        ['page_size', 'passed', 'passed'],
        ['dom_size', 'passed', 'passed'],
        ['text_html_ratio', 'passed', 'passed'],
      ],
    });
    const alt = change(d, 'newly_failed', 'image_keywords');
    assert.deepEqual([alt.from_value, alt.to_value], [0, 1]);
    const requests = change(d, 'value_changed', 'http_requests');
    assert.equal(Number(requests.to_value) - Number(requests.from_value), 1);
    const f = facts(d);
    assert.deepEqual(f['requests.images'], [1, 2]);
    assert.deepEqual(f['sizes.html_bytes'], [bytes(pages[1]!), bytes(pages[2]!)]);
    assert.deepEqual(Object.keys(f).sort(), [
      'requests.images',
      'requests.total',
      'sizes.html_bytes',
      'sizes.transfer_bytes',
    ]);
    assert.equal(d.regression, true);
  });

  test('the page grows past 330 kB: page_size newly failed (medium: not a regression by itself)', async () => {
    h().fixture.route(path, html(pages[3]!));
    await reaudit();
    const d = await diff();
    assert.deepEqual([d.from.id, d.to.id], [3, 4]);
    assert.deepEqual(shape(d), {
      newly_failed: [['page_size', 'passed', 'failed']],
      newly_passed: [],
      newly_inconclusive: [],
      value_changed: [
        ['dom_size', 'passed', 'passed'],
        ['content_length', 'passed', 'passed'],
        ['text_html_ratio', 'passed', 'passed'],
      ],
    });
    const size = change(d, 'newly_failed', 'page_size');
    assert.deepEqual([size.from_value, size.to_value], [bytes(pages[2]!), bytes(pages[3]!)]);
    assert.match(size.message, /keep it under 330 kB/);
    const words = change(d, 'value_changed', 'content_length');
    assert.equal(Number(words.to_value) - Number(words.from_value), 9000 * 6);
    assert.deepEqual(facts(d), {
      'sizes.transfer_bytes': [bytes(pages[2]!), bytes(pages[3]!)],
      'sizes.html_bytes': [bytes(pages[2]!), bytes(pages[3]!)],
    });
    assert.equal(d.result.change === 'worse', d.regression, 'only a band drop would make it one');
  });

  test('any two runs: from=1&to=4 sums the three steps; to=2 defaults from to 1', async () => {
    const d = await diff('?from=1&to=4');
    assert.deepEqual(shape(d).newly_failed, [
      ['image_keywords', 'passed', 'failed'],
      ['title', 'passed', 'failed'],
      ['page_size', 'passed', 'failed'],
    ]);
    assert.deepEqual(shape(d).newly_inconclusive, [['content_keywords', 'passed', 'inconclusive']]);
    assert.equal(d.score.delta, d.to.score! - d.from.score!);
    const two = await diff('?to=2');
    assert.deepEqual([two.from.id, two.to.id], [1, 2]);
    const back = await diff('?from=4&to=1');
    assert.deepEqual(
      shape(back).newly_passed.map(([c]) => c),
      ['content_keywords', 'image_keywords', 'title', 'page_size'],
      'the way back: content_keywords is judged again',
    );
    const same = await diff('?from=3&to=3');
    assert.equal(same.changed, false);
  });

  test('runs are listed newest first; a run keeps its address and content when later runs come', async () => {
    const runs = await get<ListJson<RunJson>>(`/api/v1/reports/${id}/runs`);
    assert.deepEqual(
      runs.data.map((r) => [r.id, r.current]),
      [
        [4, true],
        [3, false],
        [2, false],
        [1, false],
      ],
    );
    const before = (await get<{ data: RunJson }>(`/api/v1/reports/${id}/runs/4`)).data;
    const report = (
      await get<{ data: { results: unknown; page: unknown; generated_at: string } }>(`/api/v1/reports/${id}`)
    ).data;
    assert.deepEqual(before.results, report.results, 'the current run is the report');
    assert.equal(before.generated_at, report.generated_at);
    assert.equal(before.page!.sizes.html_bytes, bytes(pages[3]!));
    await reaudit();
    const after = (await get<{ data: RunJson }>(`/api/v1/reports/${id}/runs/4`)).data;
    assert.deepEqual({ ...after, current: true }, before, 'the same run at the same address');
    assert.equal(after.current, false);
    const five = await diff();
    assert.deepEqual([five.from.id, five.to.id], [4, 5]);
    // the same page audited twice: nothing changed but (maybe) measured durations
    assert.deepEqual(shape(five), {
      newly_failed: [],
      newly_passed: [],
      newly_inconclusive: [],
      value_changed: [],
    });
    assert.deepEqual(facts(five), {});
    assert.equal(five.score.delta, 0);
  });

  test('pagination: per_page and page like the other lists; bad values name the allowed ones', async () => {
    for (let i = 0; i < 7; i++) await reaudit();
    const first = await get<ListJson<RunJson>>(`/api/v1/reports/${id}/runs?per_page=10`);
    assert.equal(first.meta.total, 12);
    assert.equal(first.meta.last_page, 2);
    assert.deepEqual(
      first.data.map((r) => r.id),
      [12, 11, 10, 9, 8, 7, 6, 5, 4, 3],
    );
    assert.equal(first.links.next, `${PUBLIC_URL}/api/v1/reports/${id}/runs?per_page=10&page=2`);
    assert.equal(first.links.prev, null);
    const second = await get<ListJson<RunJson>>(first.links.next!.replace(PUBLIC_URL, ''));
    assert.deepEqual(
      second.data.map((r) => r.id),
      [2, 1],
    );
    assert.equal(second.meta.from, 11);
    const past = await get<ListJson<RunJson>>(`/api/v1/reports/${id}/runs?page=3`);
    assert.deepEqual(past.data, []);
    assert.equal(past.meta.total, 12);
    const bad = await get<{ errors: Record<string, string[]> }>(
      `/api/v1/reports/${id}/runs?per_page=7&page=0`,
      422,
    );
    assert.equal(bad.errors.per_page![0], 'The per_page must be one of: 10, 25, 50, 100.');
    assert.match(bad.errors.page![0]!, /at least 1/);
  });

  test('a re-audit that cannot fetch the page is a failed run; the results stay; PATCH still answers 422', async () => {
    const reportBefore = await get<{ data: unknown }>(`/api/v1/reports/${id}`);
    h().fixture.route(path, {
      status: 200,
      headers: { 'content-type': 'application/pdf' },
      body: '%PDF-1.4',
    });
    const res = await reaudit(422);
    const reason = (res.json() as { errors: { url: string[] } }).errors.url[0]!;
    assert.deepEqual(await get<{ data: unknown }>(`/api/v1/reports/${id}`), reportBefore, 'report unchanged');
    const runs = await get<ListJson<RunJson>>(`/api/v1/reports/${id}/runs`);
    assert.equal(runs.meta.total, 13);
    const failed = runs.data[0]!;
    assert.deepEqual(
      { ...failed, generated_at: '' },
      {
        id: 13,
        report_id: id,
        status: 'failed',
        current: false,
        source: 'api',
        batch_id: null,
        generated_at: '',
        final_url: null,
        result: null,
        score: null,
        categories: null,
        error: reason,
        links: {
          self: `${PUBLIC_URL}/api/v1/reports/${id}/runs/13`,
          report: `${PUBLIC_URL}/api/v1/reports/${id}`,
        },
      },
    );
    assert.equal(runs.data[1]!.id, 12);
    assert.equal(runs.data[1]!.current, true);
    const full = (await get<{ data: RunJson }>(`/api/v1/reports/${id}/runs/13`)).data;
    assert.equal(full.results, null);
    assert.equal(full.page, null);
    // the default diff compares completed runs only; a failed one named is a 422 under its parameter
    const d = await diff();
    assert.deepEqual([d.from.id, d.to.id], [11, 12]);
    const to = await get<{ errors: Record<string, string[]> }>(`/api/v1/reports/${id}/diff?to=13`, 422);
    assert.match(to.errors.to![0]!, /Run 13 failed/);
    const from = await get<{ errors: Record<string, string[]> }>(`/api/v1/reports/${id}/diff?from=13`, 422);
    assert.match(from.errors.from![0]!, /Run 13 failed/);
    const gone = await get<{ errors: Record<string, string[]> }>(`/api/v1/reports/${id}/diff?to=99`, 422);
    assert.equal(gone.errors.to![0], 'Run 99 is not kept: the runs of this report are 1 to 13.');

    // the service that schedules and webhooks call: an outcome, never a throw
    const outcome = await h().services.reports.reaudit(h().alice.id, id, { source: 'schedule' });
    assert.equal(outcome.status, 'failed');
    assert.equal(outcome.run.number, 14);
    assert.equal(outcome.run.source, 'schedule');
    assert.equal(outcome.status === 'failed' && outcome.reason, reason);

    h().fixture.route(path, html(pages[3]!));
    const back = await h().services.reports.reaudit(h().alice.id, id, { source: 'schedule' });
    assert.equal(back.status, 'completed');
    if (back.status !== 'completed') return;
    assert.equal(back.run.number, 15);
    assert.equal(back.run.current, true);
    assert.deepEqual([back.diff.from.number, back.diff.to.number], [12, 15], 'the failed runs are skipped');
    assert.equal(back.report.id, id);
    const latest = await diff();
    assert.deepEqual([latest.from.id, latest.to.id], [12, 15]);
    assert.deepEqual(latest.checks, { ...back.diff.diff.checks });
  });

  test('404s: a missing run, another user’s report, a run number that is not a number', async () => {
    await get(`/api/v1/reports/${id}/runs/99`, 404);
    const res = await h().request({ url: `/api/v1/reports/${id}/runs/99`, headers: auth() });
    assert.deepEqual(res.json(), { message: 'No such run.' });
    for (const bad of ['0', 'x', '1e0', '0x1', '99999999999']) {
      const r = await h().request({ url: `/api/v1/reports/${id}/runs/${bad}`, headers: auth() });
      assert.equal(r.statusCode, 404, bad);
    }
    for (const url of [
      `/api/v1/reports/${id}/runs`,
      `/api/v1/reports/${id}/runs/1`,
      `/api/v1/reports/${id}/diff`,
    ]) {
      const other = await h().request({ url, headers: h().bob.auth });
      assert.equal(other.statusCode, 404, url);
      assert.deepEqual(other.json(), { message: 'No such report.' });
    }
    const bad = await get<{ errors: Record<string, string[]> }>(
      `/api/v1/reports/${id}/diff?from=zero&to=0`,
      422,
    );
    assert.deepEqual(Object.keys(bad.errors).sort(), ['from', 'to']);
    const unauth = await h().request({ url: `/api/v1/reports/${id}/runs` });
    assert.equal(unauth.statusCode, 401);
  });

  test('retention: the newest N runs are kept (the current one among them)', async () => {
    const limited = createServices({
      queue: embeddedQueue(h().database.db),
      db: h().database.db,
      analyze: testAnalyze,
      config: { ...TEST_SERVICES_CONFIG, historyLimit: 3 },
    });
    const outcome = await limited.reports.reaudit(h().alice.id, id, { source: 'api' });
    assert.equal(outcome.status, 'completed');
    const runs = await get<ListJson<RunJson>>(`/api/v1/reports/${id}/runs`);
    assert.deepEqual(
      runs.data.map((r) => [r.id, r.status]),
      [
        [16, 'completed'],
        [15, 'completed'],
        [14, 'failed'],
      ],
    );
    assert.equal(runs.meta.total, 3);
    await get(`/api/v1/reports/${id}/runs/13`, 404);
    const gone = await get<{ errors: Record<string, string[]> }>(`/api/v1/reports/${id}/diff?from=1`, 422);
    assert.equal(gone.errors.from![0], 'Run 1 is not kept: the runs of this report are 14 to 16.');
    // a failed run counts too, and the current run always stays
    h().fixture.route(path, { status: 200, headers: { 'content-type': 'application/pdf' }, body: '%PDF' });
    for (let i = 0; i < 3; i++) await limited.reports.reaudit(h().alice.id, id, { source: 'schedule' });
    const after = await get<ListJson<RunJson>>(`/api/v1/reports/${id}/runs`);
    assert.deepEqual(
      after.data.map((r) => [r.id, r.status, r.current]),
      [
        [19, 'failed', false],
        [18, 'failed', false],
        [16, 'completed', true],
      ],
    );
    h().fixture.route(path, html(pages[3]!));
  });
});
