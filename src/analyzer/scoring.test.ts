import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCORING, bandOf, capFor, capMessage, scoreResults } from './scoring.js';
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
  assert.deepEqual(SCORING.weights, { high: 10, medium: 5, low: 1 });
  assert.deepEqual(SCORING.bands, { good: 80, decent: 49 });
  assert.deepEqual(
    SCORING.caps.map((c) => [c.check, c.max, c.band]),
    [
      ['http_status', 48, 'bad'],
      ['noindex', 79, 'decent'],
      ['robots', 79, 'decent'],
    ],
  );
  for (const c of SCORING.caps) assert.equal(bandOf(c.max), c.band, `${c.check}: cap at the top of its band`);
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

const id = (
  checkId: string,
  priority: Priority,
  passed: boolean | null,
): Pick<CheckResult, 'id' | 'category' | 'priority' | 'passed'> => ({
  id: checkId,
  category: 'seo',
  priority,
  passed,
});

/** 20 passed high checks and the given ones: a score in the 90s before any cap */
const mostlyGood = (...extra: ReturnType<typeof id>[]) => [
  ...Array.from({ length: 20 }, (_, i) => id(`c${i}`, 'high', true)),
  ...extra,
];

test('scoring caps: a failed http_status makes the page bad whatever else it scores', () => {
  const s = scoreResults(mostlyGood(id('http_status', 'high', false)));
  assert.equal(s.score, 48);
  assert.equal(s.result, 'bad');
  assert.deepEqual(s.cap, { check: 'http_status', max: 48, uncapped: 95 });
  assert.match(capMessage(s.cap!), /capped at 48 \(bad\); the checks alone give 95/);
  // per-category scores stay what the checks give
  assert.equal(s.categories.seo.score, 95);
});

test('scoring caps: noindex or robots.txt blocking caps at decent; the lowest cap wins', () => {
  for (const blocker of ['noindex', 'robots']) {
    const s = scoreResults(mostlyGood(id(blocker, 'high', false)));
    assert.equal(s.score, 79, blocker);
    assert.equal(s.result, 'decent', blocker);
    assert.equal(s.cap?.check, blocker);
  }
  const both = scoreResults(mostlyGood(id('noindex', 'high', false), id('http_status', 'high', false)));
  assert.equal(both.score, 48);
  assert.equal(both.cap?.check, 'http_status');
});

test('scoring caps: no cap when the check passed, was not judged, or the score is already lower', () => {
  assert.equal(scoreResults(mostlyGood(id('http_status', 'high', true))).cap, null);
  assert.equal(scoreResults(mostlyGood(id('noindex', 'high', null))).cap, null);
  const low = scoreResults([id('a', 'high', false), id('http_status', 'high', false), id('b', 'low', true)]);
  assert.equal(low.cap, null);
  assert.equal(low.score, 5);
  assert.equal(capFor([id('robots', 'high', false)], 60), null);
});

test('scoring: the ai category has its own score but never moves the overall score', () => {
  const base = [
    { category: 'seo' as const, priority: 'high' as const, passed: true },
    { category: 'seo' as const, priority: 'low' as const, passed: false },
  ];
  const without = scoreResults(base);
  const withAi = scoreResults([
    ...base,
    { category: 'ai' as const, priority: 'medium' as const, passed: false },
  ]);
  assert.equal(withAi.score, without.score);
  assert.deepEqual(withAi.categories.ai, { score: 0, passed: 0, failed: 1 });
  const aiPassing = scoreResults([
    ...base,
    { category: 'ai' as const, priority: 'medium' as const, passed: true },
  ]);
  assert.equal(aiPassing.score, without.score);
  assert.equal(aiPassing.categories.ai.score, 100);
});

test('scoring: a category with no judged check carries the reason it is not judged, when one is given', () => {
  const r = scoreResults([{ category: 'seo', priority: 'high', passed: true }], {
    accessibility: 'needs render=1',
  });
  assert.deepEqual(r.categories.accessibility, {
    score: 0,
    passed: 0,
    failed: 0,
    not_judged: 'needs render=1',
  });
  const judged = scoreResults([{ category: 'accessibility', priority: 'high', passed: true }], {
    accessibility: 'needs render=1',
  });
  assert.deepEqual(judged.categories.accessibility, { score: 100, passed: 1, failed: 0 });
});
