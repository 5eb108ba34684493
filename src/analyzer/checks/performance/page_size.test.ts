import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './page_size.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('page_size: passes for a small page', () => {
  const r = runOn(check, page('<p>hi</p>'));
  assert.equal(r.passed, true);
  assert.equal(typeof r.value, 'number');
});

test('page_size: fails over 330 kB', () => {
  const r = runOn(check, page(`<p>${'x'.repeat(340_000)}</p>`));
  assert.equal(r.passed, false);
  assert.match(r.message, /keep it under 330 kB/);
});

test('page_size: counts bytes, not characters', () => {
  // 120,000 three-byte characters = 360 kB
  assert.equal(runOn(check, page(`<p>${'€'.repeat(120_000)}</p>`)).passed, false);
});
