import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './x_content_type_options.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('x_content_type_options: nosniff passes (any case)', () => {
  const r = runOn(check, page('x'), {
    headers: { 'content-type': 'text/html', 'x-content-type-options': 'NoSniff' },
  });
  assert.equal(r.passed, true);
});

test('x_content_type_options: missing fails', () => {
  const r = runOn(check, page('x'));
  assert.equal(r.passed, false);
  assert.equal(r.message, 'The page sends no X-Content-Type-Options header.');
});

test('x_content_type_options: edge — a wrong value fails; a repeated nosniff passes', () => {
  assert.equal(runOn(check, page('x'), { headers: { 'x-content-type-options': 'sniff' } }).passed, false);
  assert.equal(
    runOn(check, page('x'), { headers: { 'x-content-type-options': 'nosniff, nosniff' } }).passed,
    true,
  );
  assert.equal(check.needsContent, false);
});
