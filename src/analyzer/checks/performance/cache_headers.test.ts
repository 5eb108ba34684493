import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './cache_headers.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const html = { 'content-type': 'text/html' };

test('cache_headers: Cache-Control passes', () => {
  const r = runOn(check, page('x'), { headers: { ...html, 'cache-control': 'no-cache', etag: '"abc"' } });
  assert.equal(r.passed, true);
  assert.equal(r.message, 'The HTML declares its caching with Cache-Control: no-cache, an ETag.');
  assert.equal(r.value, 'no-cache');
});

test('cache_headers: no policy at all fails', () => {
  const r = runOn(check, page('x'), { headers: html });
  assert.equal(r.passed, false);
  assert.match(r.message, /no Cache-Control, ETag or Last-Modified/);
  assert.ok(r.details?.type === 'table');
});

test('cache_headers: edge — validators alone pass; Expires alone fails; no-store is noted', () => {
  assert.equal(
    runOn(check, page('x'), { headers: { ...html, 'last-modified': 'Wed, 21 Oct 2015 07:28:00 GMT' } })
      .passed,
    true,
  );
  assert.equal(
    runOn(check, page('x'), { headers: { ...html, expires: 'Wed, 21 Oct 2015 07:28:00 GMT' } }).passed,
    false,
  );
  assert.match(
    runOn(check, page('x'), { headers: { ...html, 'cache-control': 'private, no-store' } }).message,
    /never stored/,
  );
});
