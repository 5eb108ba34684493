import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './dom_size.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('dom_size: passes for a small page (html, head, meta, title, body, p)', () => {
  const r = runOn(check, page('<p>x</p>'));
  assert.equal(r.passed, true);
  assert.equal(r.value, 6);
});

test('dom_size: fails over 1,500 elements', () => {
  const r = runOn(check, page('<span>x</span>'.repeat(1500)));
  assert.equal(r.passed, false);
  assert.match(r.message, /1,505 elements/);
});

test('dom_size: depth is reported; void and implied-closed elements are counted once', () => {
  const r = runOn(check, page('<div><div><div><br><p>a<p>b</div></div></div>'));
  assert.equal(r.value, 11);
  assert.match(r.message, /nested up to 6 deep/);
});
