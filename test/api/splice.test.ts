// GET /reports and GET /reports/{id} write the stored JSON text into their answers unparsed
// (src/http/presenters/report.ts). Their bytes must be exactly JSON.stringify of the parsed
// report as presented (the path the writes, the pages and the webhooks keep), for stored text
// holding unicode, escapes, `</script>`, a render object — on SQLite and PostgreSQL.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RenderInfo } from '../../src/analyzer/rendered.js';
import { auditColumns } from '../../src/services/audit/audit.js';
import { updateReportAudit } from '../../src/store/reports.repository.js';
import { paginate } from '../../src/contract/pagination.js';
import { presentReport, presentReportSummary } from '../../src/contract/reports/present.js';
import { buildReport, cannedAudit } from '../helpers/factories.js';
import { forEachDialect, PUBLIC_URL } from '../helpers/api-harness.js';

/** Text that JSON escapes, that HTML must not see raw, and that is not ASCII. */
const TRICKY =
  'Ünïcödé — 日本語 😀 "quoted" back\\slash tab\t nl\n cr\r nul\u0000 del\u007f ' +
  "ls\u2028 ps\u2029 lone\ud800 </script><script>alert(1)</script> <!-- &amp; ' /";

function render(): RenderInfo {
  const a = cannedAudit();
  return {
    mode: 'rendered',
    status: 'inconclusive',
    reason: `timed out ${TRICKY}`,
    timings: { queue_ms: 1, total_ms: 25 },
    requests: 3,
    bytes: 1024,
    refused: [{ url: 'http://10.0.0.1/</script>', reason: TRICKY }],
    refused_count: 1,
    raw: { result: a.result, score: a.score, categories: a.categories },
    differences: [],
    dom: {
      elements: { raw: 1, rendered: 2 },
      links: { raw: 0, rendered: 0 },
      words: { raw: 10, rendered: 12 },
      images: { raw: 0, rendered: 0 },
      headings: { raw: 1, rendered: 1 },
    },
    browser_checks: [],
    accessibility: null,
  };
}

forEachDialect('API answers splice the stored JSON', (h) => {
  /** a stored report whose page, results and categories hold TRICKY; with a render object when asked */
  async function trickyReport(path: string, withRender: boolean) {
    const r = await buildReport(h().services, h().alice, { site: 'splice', path });
    const a = cannedAudit();
    const cols = auditColumns(a);
    cols.page = {
      ...cols.page,
      redirects: [{ url: `http://splice.canned.test/${TRICKY}`, status: 301 }],
      requests: { ...cols.page.requests, [TRICKY]: 1 },
      timings: { ...cols.page.timings, ttfb_ms: 0.1 + 0.2 },
    };
    const [firstId] = Object.keys(cols.results);
    const first = cols.results[firstId!]!;
    cols.results = { ...cols.results, [firstId!]: { ...first, message: TRICKY } as typeof first };
    cols.render = withRender ? render() : null;
    await updateReportAudit(h().database.db, r.id, cols);
    return r.id;
  }

  test('GET /reports/{id}: the bytes of the parsed report, presented and stringified', async () => {
    for (const withRender of [false, true]) {
      const id = await trickyReport(`/show-${withRender}`, withRender);
      const res = await h().request({ url: `/api/v1/reports/${id}`, headers: h().alice.auth });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const parsed = await h().services.reports.getOwned(h().alice.id, id);
      const expected = { data: presentReport(parsed, PUBLIC_URL) };
      assert.equal(res.body, JSON.stringify(expected));
      const body = JSON.parse(res.body) as {
        data: Record<string, unknown> & { page: { requests: Record<string, number> } };
      };
      assert.deepEqual(body, JSON.parse(JSON.stringify(expected)));
      assert.equal(body.data.page.requests[TRICKY], 1);
      assert.equal('render' in body.data, withRender);
    }
  });

  test('GET /reports?per_page=100: every row as the parsed path gives it, links and meta too', async () => {
    for (let i = 0; i < 12; i++) await trickyReport(`/list-${i}`, i % 3 === 0);
    for (const query of [
      'per_page=100',
      'per_page=10&page=2&sort_by=url&sort=asc',
      'search=splice&per_page=25',
    ]) {
      const res = await h().request({ url: `/api/v1/reports?${query}`, headers: h().alice.auth });
      assert.equal(res.statusCode, 200);
      const params = new URLSearchParams(query);
      const q = {
        perPage: Number(params.get('per_page')) as 10 | 25 | 100,
        page: Number(params.get('page') ?? 1),
        ...(params.get('sort_by') ? { sortBy: params.get('sort_by') as 'url' } : {}),
        ...(params.get('sort') ? { sort: params.get('sort') as 'asc' } : {}),
        ...(params.get('search') ? { search: params.get('search')! } : {}),
      };
      const page = await h().services.reports.list(h().alice.id, q);
      assert.ok(page.items.length > 0);
      const expected = paginate({
        items: page.items.map((r) => presentReportSummary(r, PUBLIC_URL)),
        total: page.total,
        page: q.page,
        perPage: q.perPage,
        path: `${PUBLIC_URL}/api/v1/reports`,
        rawQuery: query,
      });
      assert.equal(res.body, JSON.stringify(expected), query);
      assert.deepEqual(JSON.parse(res.body), JSON.parse(JSON.stringify(expected)));
    }
  });

  test('the stored text is what the parsed path reads (a row written by another client keeps its meaning)', async () => {
    const id = await trickyReport('/raw', false);
    const text = await h().services.reports.getOwnedText(h().alice.id, id);
    const parsed = await h().services.reports.getOwned(h().alice.id, id);
    assert.deepEqual(JSON.parse(text.pageJson), parsed.page);
    assert.deepEqual(JSON.parse(text.resultsJson), parsed.results);
    assert.deepEqual(JSON.parse(text.categoriesJson), parsed.categories);
    assert.equal(text.renderJson, null);
    assert.equal(text.generatedAt, parsed.generatedAt);
    assert.match(text.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
