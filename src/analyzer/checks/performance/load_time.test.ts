import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './load_time.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('load_time: passes under 2 s', () => {
  const r = runOn(check, page(''), { timings: { total_ms: 640, ttfb_ms: 120 } });
  assert.equal(r.passed, true);
  assert.equal(r.message, 'The HTML loaded in 0.64 s (first byte after 120 ms).');
});

test('load_time: fails over 2 s', () => {
  assert.equal(runOn(check, page(''), { timings: { total_ms: 2400 } }).passed, false);
});

test('load_time: exactly 2 s passes; threshold configurable', () => {
  assert.equal(runOn(check, page(''), { timings: { total_ms: 2000 } }).passed, true);
  assert.equal(
    runOn(check, page(''), { timings: { total_ms: 900 } }, { 'load_time.max_ms': 500 }).passed,
    false,
  );
});
