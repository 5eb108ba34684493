import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCORING, bandOf, scoreResults } from './scoring.js';
import type { Category, CheckResult, Priority } from './types.js';

const r = (
  category: Category,
  priority: Priority,
  passed: boolean | null,
): Pick<CheckResult, 'category' | 'priority' | 'passed'> => ({
  category,
  priority,
  passed,
});

test('scoring: the table', () => {
  assert.deepEqual(SCORING, { weights: { high: 10, medium: 5, low: 1 }, bands: { good: 80, decent: 49 } });
});

test('scoring: weighted share of passed checks, null checks not judged', () => {
  const s = scoreResults([
    r('seo', 'high', true),
    r('seo', 'medium', false),
    r('security', 'low', true),
    r('security', 'high', null),
  ]);
  // passed 10 + 1 = 11 of judged 16 → 68.75 → 69
  assert.equal(s.score, 69);
  assert.equal(s.result, 'decent');
  assert.deepEqual(s.categories.seo, { score: 67, passed: 1, failed: 1 });
  assert.deepEqual(s.categories.security, { score: 100, passed: 1, failed: 0 });
  assert.deepEqual(s.categories.performance, { score: 0, passed: 0, failed: 0 });
});

test('scoring: bands at their edges', () => {
  assert.equal(bandOf(80), 'good');
  assert.equal(bandOf(79), 'decent');
  assert.equal(bandOf(49), 'decent');
  assert.equal(bandOf(48), 'bad');
});

test('scoring: all passed is 100 and good; nothing judged is 0 and bad', () => {
  assert.deepEqual(scoreResults([r('seo', 'low', true)]).score, 100);
  const none = scoreResults([r('seo', 'high', null)]);
  assert.equal(none.score, 0);
  assert.equal(none.result, 'bad');
});
