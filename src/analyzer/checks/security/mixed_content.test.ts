import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './mixed_content.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('mixed_content: passes with https and relative subresources', () => {
  assert.equal(
    runOn(check, page('<img src="/a.png"><script src="https://cdn.example.org/x.js"></script>')).passed,
    true,
  );
});

test('mixed_content: fails with an http image and stylesheet', () => {
  const r = runOn(
    check,
    page('<img src="http://cdn.example.org/a.png">', '<link rel="stylesheet" href="http://x.org/s.css">'),
  );
  assert.equal(r.passed, false);
  assert.equal(r.value, 2);
  assert.equal(r.details?.type, 'table');
});

test('mixed_content: http pages are not applicable; plain links are not subresources', () => {
  assert.equal(
    runOn(check, page('<img src="http://x.org/a.png">'), { url: 'http://example.com/' }).inconclusive_reason,
    'not_applicable',
  );
  assert.equal(runOn(check, page('<a href="http://x.org/">x</a>')).passed, true);
});
