import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './https_encryption.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('https_encryption: passes on https', () => {
  assert.equal(runOn(check, page('')).passed, true);
});

test('https_encryption: fails on http', () => {
  assert.equal(runOn(check, page(''), { url: 'http://example.com/' }).passed, false);
});

test('https_encryption: judges where redirects ended', () => {
  assert.equal(
    runOn(check, page(''), { url: 'http://example.com/', finalUrl: 'https://example.com/' }).passed,
    true,
  );
  assert.equal(
    runOn(check, page(''), { url: 'https://example.com/', finalUrl: 'http://example.com/' }).passed,
    false,
  );
});
