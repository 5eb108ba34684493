// The pure diff (src/analyzer/diff.ts) on audits built by the real checks: each changed check
// listed once, by state; measured durations past the noise floor only; a check one run does
// not have; the regression rule of alerts and the CLI's gate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditReport, CheckResult } from '../../src/analyzer/types.js';
import {
  diffRuns,
  isRegression,
  regressionReasons,
  timingChanged,
  type DiffInput,
} from '../../src/analyzer/diff.js';
import { cannedAudit } from '../helpers/factories.js';

const input = (a: AuditReport): DiffInput => ({ ...a, finalUrl: a.final_url });

/** A copy of the canned audit with some checks and facts changed. */
function variant(change: (results: Record<string, CheckResult>, a: AuditReport) => void): DiffInput {
  const a = structuredClone(cannedAudit());
  change(a.results, a);
  return input(a);
}

test('an audit compared with itself: nothing changed', () => {
  const a = input(cannedAudit());
  const d = diffRuns(a, a);
  assert.equal(d.changed, false);
  assert.deepEqual(d.checks, {
    newly_failed: [],
    newly_passed: [],
    newly_inconclusive: [],
    value_changed: [],
  });
  assert.deepEqual(d.page, []);
  assert.deepEqual(d.score, { from: a.score, to: a.score, delta: 0 });
  assert.deepEqual(d.result, { from: a.result, to: a.result, change: 'same' });
  assert.equal(isRegression(d), false);
  assert.deepEqual(regressionReasons(d, 0), []);
});

test('each changed check is listed once, by its new state, with both values; sorted high first', () => {
  const from = input(cannedAudit());
  const to = variant((r) => {
    r.page_size = { ...r.page_size!, passed: false, value: null };
    r.title = { ...r.title!, passed: false, value: 'x'.repeat(90) };
    r.favicon = { ...r.favicon!, passed: null, inconclusive_reason: 'no_data' };
    r.dom_size = { ...r.dom_size!, value: 999 };
  });
  const d = diffRuns(from, to);
  assert.deepEqual(
    d.checks.newly_failed.map((c) => [c.id, c.priority, c.from, c.to]),
    [
      ['title', 'high', 'passed', 'failed'],
      ['page_size', 'medium', 'passed', 'failed'],
    ],
  );
  assert.equal(d.checks.newly_failed[0]!.from_value, from.results.title!.value);
  assert.equal(d.checks.newly_failed[0]!.to_value, 'x'.repeat(90));
  assert.equal(d.checks.newly_failed[1]!.to_value, null, 'a null value is a value');
  assert.deepEqual(
    d.checks.newly_inconclusive.map((c) => [c.id, c.from, c.to]),
    [['favicon', 'passed', 'inconclusive']],
  );
  assert.deepEqual(
    d.checks.value_changed.map((c) => [c.id, c.to_value]),
    [['dom_size', 999]],
  );
  assert.deepEqual(d.checks.newly_passed, []);
  assert.equal(isRegression(d), true, 'title is high priority');
  assert.deepEqual(regressionReasons(d, 100), ['2 checks newly failed: title, page_size']);

  const back = diffRuns(to, from);
  assert.deepEqual(
    back.checks.newly_passed.map((c) => c.id),
    ['title', 'favicon', 'page_size'],
  );
  assert.equal(isRegression(back), false);
});

test('a band drop is a regression; a medium check failing alone is not; the score gate counts points', () => {
  const from = input(cannedAudit());
  const drop = { ...from, score: 60, result: 'decent' as const };
  const d = diffRuns(from, drop);
  assert.equal(d.result.change, 'worse');
  assert.equal(isRegression(d), true);
  assert.deepEqual(regressionReasons(d, 0), [
    `the score dropped by ${from.score - 60} points (${from.score} → 60; allowed: 0)`,
  ]);
  assert.deepEqual(regressionReasons(d, from.score - 60), [], 'a drop of exactly --max-drop passes');
  const medium = variant((r) => {
    r.page_size = { ...r.page_size!, passed: false };
  });
  assert.equal(isRegression(diffRuns(from, medium)), false);
  assert.equal(diffRuns(drop, from).result.change, 'better');
});

test('a check one run does not have: listed by its state in the later run, never a regression', () => {
  const from = variant((r) => {
    delete r.title;
  });
  const to = variant((r) => {
    r.title = { ...r.title!, passed: false };
  });
  const d = diffRuns(from, to);
  assert.deepEqual(
    d.checks.newly_failed.map((c) => [c.id, c.from, c.to, 'from_value' in c]),
    [['title', 'absent', 'failed', false]],
  );
  assert.equal(isRegression(d), false);
  assert.deepEqual(regressionReasons(d, 0), []);
  // the later run without it: not listed (checks come and go only with upgrades)
  assert.deepEqual(diffRuns(to, from).checks.newly_failed, []);
});

test('measured durations: changes below the noise floor are not changes', () => {
  assert.equal(timingChanged(20, 80), false, '60 ms');
  assert.equal(timingChanged(1000, 1150), false, '150 ms but 15 %');
  assert.equal(timingChanged(300, 420), true, '120 ms and 40 %');
  assert.equal(timingChanged(null, 5), true);
  assert.equal(timingChanged(null, null), false);
  const from = variant((r, a) => {
    a.page.timings.total_ms = 40;
    r.load_time = { ...r.load_time!, value: 40 };
  });
  const jitter = variant((r, a) => {
    a.page.timings.total_ms = 95;
    r.load_time = { ...r.load_time!, value: 95 };
  });
  assert.equal(diffRuns(from, jitter).changed, false);
  const slow = variant((r, a) => {
    a.page.timings.total_ms = 900;
    r.load_time = { ...r.load_time!, value: 900 };
  });
  const d = diffRuns(from, slow);
  assert.deepEqual(d.page, [{ fact: 'timings.total_ms', from: 40, to: 900 }]);
  assert.deepEqual(
    d.checks.value_changed.map((c) => [c.id, c.from_value, c.to_value]),
    [['load_time', 40, 900]],
  );
});

test('page facts: status, redirects, sizes and request counts (a missing kind counts 0)', () => {
  const from = input(cannedAudit());
  const to = variant((_r, a) => {
    a.final_url = 'http://canned.test/new';
    a.page.status = 203;
    a.page.redirects = [{ url: 'http://canned.test/', status: 301 }];
    a.page.sizes.html_bytes += 1000;
    a.page.requests = { ...a.page.requests, iframes: 2 };
  });
  const d = diffRuns(from, to);
  assert.deepEqual(d.page, [
    { fact: 'final_url', from: 'http://canned.test/', to: 'http://canned.test/new' },
    { fact: 'status', from: 200, to: 203 },
    { fact: 'redirects', from: [], to: [{ url: 'http://canned.test/', status: 301 }] },
    { fact: 'sizes.html_bytes', from: from.page.sizes.html_bytes, to: from.page.sizes.html_bytes + 1000 },
    { fact: 'requests.iframes', from: from.page.requests.iframes ?? 0, to: 2 },
  ]);
  assert.equal(d.changed, true);
});
