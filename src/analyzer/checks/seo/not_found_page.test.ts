import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './not_found_page.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('not_found_page: passes on 404 and 410', () => {
  assert.equal(runOn(check, page(''), { notFoundStatus: 404 }).passed, true);
  assert.equal(runOn(check, page(''), { notFoundStatus: 410 }).passed, true);
});

test('not_found_page: fails on a soft 200', () => {
  const r = runOn(check, page(''), { notFoundStatus: 200 });
  assert.equal(r.passed, false);
  assert.match(r.message, /answered 200/);
});

test('not_found_page: not probed or failed probe is not judged; blocked pages still are', () => {
  assert.equal(runOn(check, page('')).passed, null);
  assert.equal(runOn(check, page(''), { notFoundStatus: null }).inconclusive_reason, 'no_data');
  assert.equal(runOn(check, page(''), { status: 403, notFoundStatus: 404 }).passed, true);
});
