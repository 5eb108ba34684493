import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './seo_friendly_url.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('seo_friendly_url: passes for a hyphenated path', () => {
  assert.equal(runOn(check, page(''), { url: 'https://example.com/fresh-bread/' }).passed, true);
});

test('seo_friendly_url: fails for a query string or underscores', () => {
  const r = runOn(check, page(''), { url: 'https://example.com/index.php?id=42' });
  assert.equal(r.passed, false);
  assert.match(r.message, /"\?", "="/);
  assert.equal(runOn(check, page(''), { url: 'https://example.com/fresh_bread' }).passed, false);
});

test('seo_friendly_url: judges the final URL; an encoded space fails', () => {
  assert.equal(
    runOn(check, page(''), { url: 'https://example.com/?a=1', finalUrl: 'https://example.com/home' }).passed,
    true,
  );
  assert.equal(runOn(check, page(''), { url: 'https://example.com/a b' }).passed, false);
});
