import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './favicon.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('favicon: passes with a declared icon', () => {
  const r = runOn(check, page('', '<link rel="shortcut icon" href="/i.ico">'));
  assert.equal(r.passed, true);
  assert.equal(r.value, 'https://example.com/i.ico');
});

test('favicon: passes with /favicon.ico found, fails when it is 404', () => {
  assert.equal(runOn(check, page(''), { faviconStatus: 200 }).passed, true);
  const r = runOn(check, page(''), { faviconStatus: 404 });
  assert.equal(r.passed, false);
  assert.match(r.message, /answered 404/);
});

test('favicon: not probed and nothing declared is not judged', () => {
  assert.equal(runOn(check, page('')).passed, null);
  assert.equal(runOn(check, page('', '<link rel="icon">'), { faviconStatus: 404 }).passed, false);
});
