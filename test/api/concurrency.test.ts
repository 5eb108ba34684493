// Concurrent stores, updates and deletes through the API (real HTTP on 127.0.0.1, real audits
// of fixture pages) leave exact counts and never answer 5xx — over every dialect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forEachDialect } from '../helpers/api-harness.js';

interface Listed {
  data: { id: number; project: string; privacy: number }[];
  meta: { total: number };
}

forEachDialect('concurrency', (h) => {
  let base = '';

  async function call(method: string, path: string, key: string, fields?: Record<string, string>) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(fields ? { body: new URLSearchParams(fields).toString() } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  }

  test('parallel stores, updates and deletes: exact counts, no 5xx', async () => {
    base = await h().app.listen({ port: 0, host: '127.0.0.1' });
    const alice = h().alice.key;
    const bob = h().bob.key;
    const STORES = 12;

    // stores by two users into two projects each, all at once
    const stores = await Promise.all(
      Array.from({ length: STORES }, (_, i) =>
        call('POST', '/api/v1/reports', i % 2 === 0 ? alice : bob, {
          url: `${h().site(i % 4 < 2 ? 'one' : 'two')}/${i % 3 === 0 ? 'bad' : ''}?i=${i}`,
        }),
      ),
    );
    for (const s of stores) assert.equal(s.status, 201, JSON.stringify(s.body));
    const ids = stores.map((s) => (s.body as { data: { id: number } }).data.id);
    assert.equal(new Set(ids).size, STORES, 'every store got its own id');

    const aliceIds = ids.filter((_, i) => i % 2 === 0);
    const all = (await call('GET', '/api/v1/reports?per_page=100', alice)).body as Listed;
    assert.equal(all.meta.total, STORES / 2);
    assert.deepEqual(
      all.data.map((r) => r.id).sort((a, b) => a - b),
      [...aliceIds].sort((a, b) => a - b),
    );

    // the same report updated many times at once, others deleted at once (twice each), and
    // bob trying to delete alice's reports at the same time
    const target = aliceIds[0]!;
    const doomed = aliceIds.slice(1, 4);
    const ops = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) =>
        call(i % 2 ? 'PUT' : 'PATCH', `/api/v1/reports/${target}`, alice, { privacy: String(i % 2) }),
      ),
      ...doomed.flatMap((id) => [
        call('DELETE', `/api/v1/reports/${id}`, alice),
        call('DELETE', `/api/v1/reports/${id}`, alice),
      ]),
      ...aliceIds.map((id) => call('DELETE', `/api/v1/reports/${id}`, bob)),
      call('PATCH', `/api/v1/reports/${target}`, alice, { results: '1' }),
    ]);
    for (const o of ops) assert.ok(o.status < 500, `no 5xx: ${o.status} ${JSON.stringify(o.body)}`);
    const updates = ops.slice(0, 6);
    assert.ok(updates.every((u) => u.status === 200));
    const deletes = ops.slice(6, 6 + doomed.length * 2);
    assert.equal(
      deletes.filter((d) => d.status === 200).length,
      doomed.length,
      'each report deleted exactly once',
    );
    assert.equal(deletes.filter((d) => d.status === 404).length, doomed.length);
    const bobs = ops.slice(6 + doomed.length * 2, 6 + doomed.length * 2 + aliceIds.length);
    assert.ok(bobs.every((b) => b.status === 404));
    assert.equal(ops.at(-1)!.status, 200);

    const after = (await call('GET', '/api/v1/reports?per_page=100', alice)).body as Listed;
    assert.equal(after.meta.total, STORES / 2 - doomed.length);
    const shown = await call('GET', `/api/v1/reports/${target}`, alice);
    assert.equal(shown.status, 200);
    assert.ok([0, 1].includes((shown.body as { data: { privacy: number } }).data.privacy));

    // project counts agree with the reports
    const projects = (await call('GET', '/api/v1/projects', alice)).body as {
      data: { project: string; reports_count: number }[];
    };
    const counted = new Map<string, number>();
    for (const r of after.data) counted.set(r.project, (counted.get(r.project) ?? 0) + 1);
    assert.deepEqual(new Map(projects.data.map((p) => [p.project, p.reports_count])), counted);

    // deleting a project while reports are stored into it and deleted from it
    const race = await Promise.all([
      call('DELETE', '/api/v1/projects/one.test', alice),
      call('POST', '/api/v1/reports', alice, { url: `${h().site('one')}/?late` }),
      ...after.data
        .filter((r) => r.project === 'one.test')
        .map((r) => call('DELETE', `/api/v1/reports/${r.id}`, alice)),
    ]);
    for (const o of race) assert.ok(o.status < 500, `no 5xx: ${o.status} ${JSON.stringify(o.body)}`);
    const final = (await call('GET', '/api/v1/reports?per_page=100', alice)).body as Listed;
    const finalProjects = (await call('GET', '/api/v1/projects', alice)).body as {
      data: { project: string; reports_count: number }[];
    };
    const finalCounted = new Map<string, number>();
    for (const r of final.data) finalCounted.set(r.project, (finalCounted.get(r.project) ?? 0) + 1);
    assert.deepEqual(new Map(finalProjects.data.map((p) => [p.project, p.reports_count])), finalCounted);

    // bob's reports were never touched
    const bobList = (await call('GET', '/api/v1/reports?per_page=100', bob)).body as Listed;
    assert.equal(bobList.meta.total, STORES / 2);
  });
});
