import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runChecks, thresholdsFor } from './run-checks.js';
import { checks } from './checks/index.js';
import { artifactsFrom, page } from '../../test/helpers/checks.js';
import type { CheckDefinition } from './checks/types.js';

const base = {
  category: 'seo',
  priority: 'low',
  title: 'ok',
  failTitle: 'not ok',
  howToFix: 'fix it',
  failsWhen: 'it is not ok',
} as const;

test('runChecks: every registered check, keyed by id in registry order', () => {
  const res = runChecks(artifactsFrom(page('<h1>Hi</h1>')));
  assert.deepEqual(
    Object.keys(res),
    checks.map((c) => c.id),
  );
  for (const r of Object.values(res)) {
    assert.ok(r.how_to_fix.length > 0);
    assert.notEqual(r.inconclusive_reason, 'error', `${r.id}: ${r.message}`);
  }
});

test('runChecks: a check that throws becomes an error result; the others stand', () => {
  const boom: CheckDefinition = {
    ...base,
    id: 'boom',
    needsContent: false,
    run: () => {
      throw new Error('kaput');
    },
  };
  const fine: CheckDefinition = {
    ...base,
    id: 'fine',
    needsContent: false,
    run: () => ({ passed: true, message: 'fine' }),
  };
  const res = runChecks(artifactsFrom(page('')), {}, [boom, fine]);
  assert.equal(res.boom!.passed, null);
  assert.equal(res.boom!.inconclusive_reason, 'error');
  assert.match(res.boom!.message, /failed to run \(kaput\)/);
  assert.equal(res.fine!.passed, true);
  assert.equal(res.fine!.title, 'ok');
});

test('runChecks: not applicable, blocked pages and no data', () => {
  const na: CheckDefinition = { ...base, id: 'na', needsContent: false, run: () => 'not_applicable' };
  const content: CheckDefinition = {
    ...base,
    id: 'content',
    needsContent: true,
    run: () => ({ passed: true, message: 'x' }),
  };
  const nodata: CheckDefinition = {
    ...base,
    id: 'nodata',
    needsContent: false,
    run: () => ({ passed: null, message: 'no data' }),
  };
  const blocked = artifactsFrom(
    '<html><head><title>Just a moment...</title></head><body>Checking</body></html>',
    { status: 403 },
  );
  const res = runChecks(blocked, {}, [na, content, nodata]);
  assert.equal(res.na!.inconclusive_reason, 'not_applicable');
  assert.equal(res.content!.inconclusive_reason, 'blocked');
  assert.match(res.content!.message, /HTTP 403/);
  assert.equal(res.nodata!.inconclusive_reason, 'no_data');
});

test('thresholdsFor: defaults, overridden by <id>.<name>', () => {
  const c: CheckDefinition = {
    ...base,
    id: 't',
    needsContent: false,
    thresholds: { max: { default: 3, description: 'd' } },
    run: (_a, t) => ({ passed: t.max! > 5, message: '' }),
  };
  assert.deepEqual(thresholdsFor(c, {}), { max: 3 });
  assert.deepEqual(thresholdsFor(c, { 't.max': 9, 'other.max': 1 }), { max: 9 });
  assert.equal(runChecks(artifactsFrom(''), { 't.max': 9 }, [c]).t!.passed, true);
});
