import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './meta_description.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('meta_description: passes with a description', () => {
  const r = runOn(
    check,
    page('', '<title>T</title><meta name="description" content="Fresh bread every day.">'),
  );
  assert.equal(r.passed, true);
  assert.equal(r.value, 'Fresh bread every day.');
});

test('meta_description: fails when missing', () => {
  assert.equal(runOn(check, page('')).passed, false);
});

test('meta_description: an empty description fails; the name is case-insensitive', () => {
  assert.equal(runOn(check, page('', '<meta name="description" content="  ">')).passed, false);
  assert.equal(runOn(check, page('', '<META NAME="Description" CONTENT="Hi">')).passed, true);
});
