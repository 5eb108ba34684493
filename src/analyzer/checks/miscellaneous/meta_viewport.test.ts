import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './meta_viewport.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('meta_viewport: passes with width=device-width', () => {
  assert.equal(
    runOn(check, page('', '<meta name="viewport" content="width=device-width, initial-scale=1">')).passed,
    true,
  );
});

test('meta_viewport: fails when missing', () => {
  assert.equal(runOn(check, page('')).passed, false);
});

test('meta_viewport: fails when it sets neither width nor initial-scale (Lighthouse legacy fixture case)', () => {
  const r = runOn(
    check,
    page('', '<meta name="viewport" content="invalid-content=should_have_looked_it_up">'),
  );
  assert.equal(r.passed, false);
  assert.match(r.message, /neither width nor initial-scale/);
});
