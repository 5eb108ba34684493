import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './headings.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('headings: passes with one h1', () => {
  const r = runOn(check, page('<h1>Our <em>bakery</em></h1><h2>Bread</h2>'));
  assert.equal(r.passed, true);
  assert.match(r.message, /Our bakery/);
  assert.equal(r.details?.type, 'table');
});

test('headings: fails with no h1', () => {
  const r = runOn(check, page('<h2>Only a subheading</h2>'));
  assert.equal(r.passed, false);
  assert.equal(r.value, 0);
});

test('headings: fails with two h1 (one inside an SVG does not count)', () => {
  assert.equal(runOn(check, page('<h1>A</h1><h1>B</h1>')).passed, false);
  assert.equal(runOn(check, page('<h1>A</h1><svg><h1>x</h1></svg>')).passed, true);
});
