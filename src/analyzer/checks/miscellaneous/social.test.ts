import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './social.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('social: passes with links to profiles', () => {
  const r = runOn(
    check,
    page('<a href="https://www.facebook.com/bakery">f</a><a href="https://x.com/bakery">x</a>'),
  );
  assert.deepEqual(r.value, ['Facebook', 'X (Twitter)']);
});

test('social: fails without them', () => {
  assert.equal(runOn(check, page('<a href="https://example.org/">partner</a>')).passed, false);
});

test('social: regional subdomains count; look-alike hosts do not', () => {
  assert.equal(runOn(check, page('<a href="https://de.linkedin.com/in/x">l</a>')).passed, true);
  assert.equal(runOn(check, page('<a href="https://notfacebook.com/">n</a>')).passed, false);
});
