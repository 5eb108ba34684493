// GET /api/v1/reports as CSV (docs/api.md#csv): `format=csv` or `Accept: text/csv` streams every
// matching report — all pages, the JSON list's filters and order — with RFC 4180 quoting. The
// CSV is parsed back here (a small RFC 4180 parser, no dependency) and compared with the JSON
// list walked page by page, on SQLite and PostgreSQL. Flat memory with 100,000 reports is
// test/api/reports-csv-memory.test.ts.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp, describeEachDialect, type TestApp } from '../helpers/app.js';
import { insertReports, type BulkReport } from '../helpers/db.js';
import { buildReport, buildUser, type TestUser } from '../helpers/factories.js';
import { REPORT_CSV_COLUMNS, prefersCsv } from '../../src/web/reports.js';

/** RFC 4180: fields split by commas, records by CRLF or LF; a quoted field may hold both, `""` is a quote. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      if (c === '\r') i += 1;
    } else field += c;
    i += 1;
  }
  assert.equal(quoted, false, 'the CSV ends inside a quoted field');
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

test('the test parser reads RFC 4180 quoting', () => {
  assert.deepEqual(parseCsv('a,"b,c","d""e","f\ng"\r\n1,,3,""\n'), [
    ['a', 'b,c', 'd"e', 'f\ng'],
    ['1', '', '3', ''],
  ]);
});

test('Accept: text/csv is chosen only when preferred to JSON', () => {
  assert.equal(prefersCsv(undefined), false);
  assert.equal(prefersCsv(''), false);
  assert.equal(prefersCsv('text/csv'), true);
  assert.equal(prefersCsv('TEXT/CSV; charset=utf-8'), true);
  assert.equal(prefersCsv('text/csv, */*;q=0.8'), true);
  assert.equal(prefersCsv('application/json;q=0.5, text/csv'), true);
  assert.equal(prefersCsv('text/csv, application/json'), false, 'a tie: JSON');
  assert.equal(prefersCsv('text/csv;q=0.5, application/json'), false);
  assert.equal(prefersCsv('text/csv;q=0'), false);
  assert.equal(prefersCsv('text/csv;q=abc'), false);
  assert.equal(prefersCsv('*/*'), false);
  assert.equal(prefersCsv('text/*'), false);
});

/** URLs that need quoting (stored as given: the API's normalisation would percent-encode some). */
const AWKWARD = [
  'https://awkward.example/a,b,c',
  'https://awkward.example/say"hello"',
  'https://awkward.example/line\nbreak',
  'https://awkward.example/crlf\r\nhere',
  'https://awkward.example/all,"of"\nthem,',
  'https://awkward.example/caf%C3%A9?q=1&r=%22',
];

const PROJECTS = ['alpha.example', 'beta.example', 'gamma.example'];
const BANDS = ['good', 'decent', 'bad'] as const;

/** 2,400 rows over three projects and bands, with repeated scores and dates (ties broken by id). */
function manyRows(): BulkReport[] {
  return Array.from({ length: 2_400 }, (_, i) => {
    const band = BANDS[(i + Math.floor(i / 3)) % 3]!;
    return {
      url: `https://${PROJECTS[i % PROJECTS.length]}/page-${String((i * 7919) % 2400).padStart(4, '0')}${i % 5 === 0 ? '/shop' : ''}`,
      result: band,
      score: band === 'good' ? 80 + (i % 7) : band === 'decent' ? 50 + (i % 11) : i % 13,
      issues: { high: i % 4, medium: i % 6, low: i % 9 },
      generatedAt: new Date(Date.parse('2026-03-01T00:00:00.000Z') + (i % 97) * 60_000).toISOString(),
    };
  });
}

interface JsonSummary {
  id: number;
  url: string;
  project: string;
  result: string;
  score: number;
  generated_at: string;
  created_at: string;
}

describeEachDialect('GET /api/v1/reports as CSV', (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const realIds: number[] = [];

  before(async () => {
    t = await buildTestApp(dialect);
    alice = await buildUser(t.services, 'alice');
    bob = await buildUser(t.services, 'bob');
    // two audited reports: their issue counts come from their real results
    realIds.push((await buildReport(t.services, alice, { path: '/pricing' })).id);
    realIds.push((await buildReport(t.services, alice, { site: 'shop', path: '/cart' })).id);
    await insertReports(
      t.database.db,
      alice.id,
      AWKWARD.map((url) => ({ url, result: 'decent' as const })),
    );
    await insertReports(t.database.db, alice.id, manyRows());
    await insertReports(t.database.db, bob.id, [{ url: 'https://bob.example/secret' }]);
  });
  after(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}, who: TestUser = alice) =>
    t.request({ method: 'GET', url, headers: { ...who.auth, ...headers } });

  /** The CSV's records as objects, after checking the header line. */
  async function csvOf(url: string, headers: Record<string, string> = {}, who: TestUser = alice) {
    const res = await get(url, headers, who);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(res.body);
    assert.deepEqual(header, [...REPORT_CSV_COLUMNS]);
    return rows.map((r) => {
      assert.equal(
        r.length,
        REPORT_CSV_COLUMNS.length,
        `a record of ${REPORT_CSV_COLUMNS.length} fields: ${r.join('|')}`,
      );
      return Object.fromEntries(REPORT_CSV_COLUMNS.map((c, k) => [c, r[k]!])) as Record<
        (typeof REPORT_CSV_COLUMNS)[number],
        string
      >;
    });
  }

  /** Every page of the JSON list (per_page=100). */
  async function jsonAll(query: string, who: TestUser = alice): Promise<JsonSummary[]> {
    const out: JsonSummary[] = [];
    for (let page = 1; ; page += 1) {
      const res = await get(`/api/v1/reports?${query}${query ? '&' : ''}per_page=100&page=${page}`, {}, who);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json() as { data: JsonSummary[]; meta: { last_page: number } };
      out.push(...body.data);
      if (page >= body.meta.last_page) return out;
    }
  }

  const comparable = (r: JsonSummary) => [
    String(r.id),
    r.url,
    r.project,
    r.result,
    String(r.score),
    r.generated_at,
    r.created_at,
  ];
  const fromCsv = (r: Record<string, string>) => [
    r.id,
    r.url,
    r.project,
    r.result,
    r.score,
    r.generated_at,
    r.created_at,
  ];

  test('format=csv: every report, all pages, the same rows and order as the JSON list', async () => {
    const res = await get('/api/v1/reports?format=csv');
    assert.match(
      String(res.headers['content-disposition']),
      /^attachment; filename="reports-all-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    assert.equal(res.headers['vary'], 'Accept');
    assert.equal(res.headers['etag'], undefined);
    const csv = await csvOf('/api/v1/reports?format=csv');
    const json = await jsonAll('');
    assert.equal(csv.length, 2 + AWKWARD.length + 2_400);
    assert.deepEqual(csv.map(fromCsv), json.map(comparable));
  });

  test('URLs with commas, quotes and line breaks round-trip exactly', async () => {
    const csv = await csvOf('/api/v1/reports?format=csv&project=awkward.example&sort=asc');
    assert.deepEqual(
      csv.map((r) => r.url),
      AWKWARD,
    );
    const raw = (await get('/api/v1/reports?format=csv&project=awkward.example&sort=asc')).body;
    assert.ok(raw.includes('"https://awkward.example/say""hello"""'), 'quotes doubled inside a quoted field');
    assert.ok(raw.includes('"https://awkward.example/a,b,c"'), 'a field with commas is quoted');
  });

  test('the issue counts are the failed checks of each priority', async () => {
    const csv = await csvOf('/api/v1/reports?format=csv&sort=asc');
    for (const id of realIds) {
      const report = (await get(`/api/v1/reports/${id}`)).json() as {
        data: { results: Record<string, { priority: string; passed: boolean | null }> };
      };
      const failed = (p: string) =>
        String(
          Object.values(report.data.results).filter((c) => c.priority === p && c.passed === false).length,
        );
      const row = csv.find((r) => r.id === String(id))!;
      assert.deepEqual(
        [row.high_issues, row.medium_issues, row.low_issues],
        [failed('high'), failed('medium'), failed('low')],
      );
    }
    const sum = (k: 'high_issues' | 'medium_issues' | 'low_issues') =>
      csv.reduce((n, r) => n + Number(r[k]), 0);
    assert.ok(sum('high_issues') + sum('medium_issues') + sum('low_issues') > 0);
    const bulk = csv.find((r) => r.url.includes('/page-') && r.high_issues === '3');
    assert.ok(bulk, 'the bulk rows carry their counts');
  });

  test('filters and every sort give the JSON list’s rows in its order', async () => {
    const queries = [
      'project=beta.example',
      'project=WWW.Beta.Example',
      'result=bad',
      'search=shop',
      'search=PAGE-00',
      'search=shop&result=good&sort_by=score',
      'project=alpha.example&result=decent&sort_by=generated_at&sort=asc',
      'project=gamma.example&sort_by=url',
      'search=%C3%A9',
    ];
    for (const key of ['id', 'generated_at', 'url', 'result', 'score'])
      for (const dir of ['asc', 'desc']) queries.push(`sort_by=${key}&sort=${dir}`);
    for (const q of queries) {
      const csv = await csvOf(`/api/v1/reports?format=csv&${q}`);
      const json = await jsonAll(q);
      assert.deepEqual(csv.map(fromCsv), json.map(comparable), q);
      assert.ok(q.includes('search=%C3%A9') || csv.length > 0, `${q}: some rows`);
    }
  });

  test('per_page and page are ignored: the CSV is every page', async () => {
    const csv = await csvOf('/api/v1/reports?format=csv&per_page=10&page=3&result=good');
    assert.equal(csv.length, (await jsonAll('result=good')).length);
  });

  test('Accept: text/csv asks for the CSV; JSON stays the default', async () => {
    const csv = await get('/api/v1/reports?result=bad', { accept: 'text/csv' });
    assert.equal(csv.headers['content-type'], 'text/csv; charset=utf-8');
    assert.equal(parseCsv(csv.body).length, 1 + 800);
    for (const accept of [
      'text/csv, application/json',
      '*/*',
      'text/csv;q=0',
      'text/html',
      'application/json',
    ]) {
      const res = await get('/api/v1/reports?result=bad', { accept });
      assert.equal(res.statusCode, 200, accept);
      assert.match(String(res.headers['content-type']), /^application\/json/, accept);
      assert.equal((res.json() as { data: unknown[] }).data.length, 10, accept);
    }
    const json = await get('/api/v1/reports?format=json', { accept: 'text/csv' });
    assert.match(String(json.headers['content-type']), /^application\/json/, 'format=json wins over Accept');
  });

  test('a bad format is a 422 naming the allowed values', async () => {
    const res = await get('/api/v1/reports?format=xlsx');
    assert.equal(res.statusCode, 422);
    const body = res.json() as { message: string; errors: Record<string, string[]> };
    assert.ok(body.errors.format, JSON.stringify(body));
    assert.match(body.errors.format.join(' '), /json/);
    assert.match(body.errors.format.join(' '), /csv/);
  });

  test('another user’s reports never appear; an empty list is the header line alone', async () => {
    const bobCsv = await csvOf('/api/v1/reports?format=csv', {}, bob);
    assert.deepEqual(
      bobCsv.map((r) => r.url),
      ['https://bob.example/secret'],
    );
    const none = await get('/api/v1/reports?format=csv&project=bob.example');
    assert.equal(none.body, `${REPORT_CSV_COLUMNS.join(',')}\n`);
  });

  test('a key limited to projects exports only those, as its JSON list', async () => {
    const limited = await t.services.keys.create(alice.id, {
      scope: 'read',
      projects: ['alpha.example', 'gamma.example'],
    });
    const who = { ...alice, auth: { authorization: `Bearer ${limited.key}` } };
    const csv = await csvOf('/api/v1/reports?format=csv&sort_by=url', {}, who);
    assert.deepEqual(csv.map(fromCsv), (await jsonAll('sort_by=url', who)).map(comparable));
    assert.deepEqual([...new Set(csv.map((r) => r.project))].sort(), ['alpha.example', 'gamma.example']);
    assert.equal((await csvOf('/api/v1/reports?format=csv&project=beta.example', {}, who)).length, 0);
    const one = await csvOf('/api/v1/reports?format=csv&project=gamma.example', {}, who);
    assert.equal(one.length, 800);
    const batch = await get('/api/v1/reports?format=csv&batch=1', {}, who);
    assert.equal(batch.statusCode, 403);
  });

  test('batch=ID: another user’s or a missing batch is a 404, before any CSV', async () => {
    const res = await get('/api/v1/reports?format=csv&batch=987654');
    assert.equal(res.statusCode, 404);
    assert.match(String(res.headers['content-type']), /^application\/json/);
  });

  test('without a key: 401', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/reports?format=csv' });
    assert.equal(res.statusCode, 401);
  });
});
