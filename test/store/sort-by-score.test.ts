// sort_by=score over every dialect: ordered by the overall score, ties broken by id in the same
// direction (as for the other keys), alone and with the result, project and search filters;
// and through the API (the schema takes it; other values still answer 422).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, projectOf } from '../../src/analyzer/index.js';
import type { CategoryScore, ResultBand } from '../../src/analyzer/types.js';
import { bandOf } from '../../src/analyzer/scoring.js';
import { createServices } from '../../src/services/index.js';
import { type ListReportsQuery } from '../../src/contract/lists.js';
import { type Services } from '../../src/services/types.js';
import { withTransaction, type Db } from '../../src/store/database.js';
import { addReportToProject } from '../../src/store/projects.repository.js';
import { insertReport } from '../../src/store/reports.repository.js';
import { adjustOrgCounters, insertOrg } from '../../src/store/organizations.repository.js';
import { dialects, openTestDb, type TestDb } from '../helpers/db.js';
import { embeddedQueue } from '../../src/jobs/index.js';

const config = {
  allowPrivateHosts: true,
  fetchTimeoutMs: 5000,
  fetchMaxBytes: 5_000_000,
  userAgent: null,
  sessionSecret: null,
  bootstrapKey: null,
};
const cat: CategoryScore = { score: 50, passed: 1, failed: 1 };
const categories = { seo: cat, performance: cat, security: cat, miscellaneous: cat, accessibility: cat, ai: cat };

// [url, score]: ties (two 52s, three 90s) across projects
const DATA: [string, number][] = [
  ['https://a.example/1', 90],
  ['https://b.example/1', 12],
  ['https://a.example/2', 52],
  ['https://c.example/1', 90],
  ['https://b.example/2', 77],
  ['https://a.example/3', 52],
  ['https://c.example/2', 0],
  ['https://a.example/4', 100],
  ['https://b.example/3', 90],
  ['https://c.example/3', 48],
];

async function seed(db: Db, userId: number, url: string, score: number, at: string): Promise<number> {
  const project = projectOf(url);
  const result: ResultBand = bandOf(score);
  return withTransaction(db, async (trx) => {
    const created = await addReportToProject(trx, userId, project, at);
    const id = await insertReport(trx, {
      userId,
      url,
      pageKey: url,
      project,
      finalUrl: url,
      result,
      score,
      generatedAt: at,
      categories,
      results: {},
      page: {
        status: 200,
        http_version: '1.1',
        redirects: [],
        timings: { dns_ms: null, connect_ms: null, tls_ms: null, ttfb_ms: null, total_ms: 1 },
        sizes: { transfer_bytes: 1, html_bytes: 1 },
        requests: {},
      },
      privacy: 0,
      passwordHash: null,
      now: at,
    });
    await adjustOrgCounters(trx, userId, { projects: created ? 1 : 0, reports: 1, [result]: 1 });
    return id;
  });
}

for (const dialect of dialects) {
  describe(`sort_by=score [${dialect.name}]`, { skip: dialect.skip }, () => {
    let t: TestDb;
    let services: Services;
    let alice: number;
    const seeded: { id: number; url: string; score: number }[] = [];

    before(async () => {
      t = await openTestDb(dialect);
      services = createServices({ queue: embeddedQueue(t.db), db: t.db, analyze, config });
      const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
      alice = (await insertOrg(t.db, 'alice', at)).id;
      const bob = (await insertOrg(t.db, 'bob', at)).id;
      for (const [url, score] of DATA) {
        seeded.push({ id: await seed(t.db, alice, url, score, at), url, score });
        await seed(t.db, bob, url, 100 - score, at);
      }
    });
    after(() => t?.cleanup());

    async function all(q: ListReportsQuery): Promise<number[]> {
      const out: number[] = [];
      for (let page = 1; ; page++) {
        const res = await services.reports.list(alice, { ...q, perPage: 10, page });
        out.push(...res.items.map((r) => r.id));
        if (res.items.length < 10) break;
      }
      return out;
    }

    for (const sort of ['asc', 'desc'] as const) {
      const dir = sort === 'asc' ? 1 : -1;
      const expected = (keep: (s: (typeof seeded)[number]) => boolean) =>
        seeded
          .filter(keep)
          .sort((a, b) => dir * (a.score - b.score || a.id - b.id))
          .map((s) => s.id);

      test(`${sort}: by score, ties by id`, async () => {
        assert.deepEqual(await all({ sortBy: 'score', sort }), expected(() => true));
      });
      test(`${sort}: with the project, result and search filters`, async () => {
        assert.deepEqual(
          await all({ sortBy: 'score', sort, project: 'a.example' }),
          expected((s) => s.url.includes('a.example')),
        );
        assert.deepEqual(
          await all({ sortBy: 'score', sort, result: 'good' }),
          expected((s) => bandOf(s.score) === 'good'),
        );
        assert.deepEqual(
          await all({ sortBy: 'score', sort, search: '/3' }),
          expected((s) => s.url.endsWith('/3')),
        );
      });
    }

    test('worst first is one query: sort=asc gives the lowest score on top', async () => {
      const page = await services.reports.list(alice, { sortBy: 'score', sort: 'asc', perPage: 10 });
      assert.deepEqual(
        page.items.slice(0, 3).map((r) => r.score),
        [0, 12, 48],
      );
    });
  });
}
