import { test } from 'node:test';
import assert from 'node:assert/strict';
import check, { parseHsts } from './hsts.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const h = (v: string) => ({ headers: { 'content-type': 'text/html', 'strict-transport-security': v } });

test('hsts: a year or more passes', () => {
  const r = runOn(check, page('x'), h('max-age=63072000; includeSubDomains; preload'));
  assert.equal(r.passed, true);
  assert.equal(
    r.message,
    'Strict-Transport-Security max-age is 63072000 s (730 days) (includeSubDomains, preload).',
  );
});

test('hsts: missing or short max-age fails', () => {
  const missing = runOn(check, page('x'));
  assert.equal(missing.passed, false);
  assert.match(missing.message, /sends no Strict-Transport-Security header/);
  const short = runOn(check, page('x'), h('max-age=86400'));
  assert.equal(short.passed, false);
  assert.equal(
    short.message,
    'Strict-Transport-Security max-age is 86400 s (1 day); at least 31536000 s (365 days) is expected.',
  );
  assert.equal(runOn(check, page('x'), h('max-age=86400'), { 'hsts.min_max_age': 3600 }).passed, true);
});

test('hsts: edge — not applicable over http; max-age=0 and a missing max-age fail', () => {
  assert.equal(runOn(check, page('x'), { url: 'http://example.com/' }).inconclusive_reason, 'not_applicable');
  assert.match(runOn(check, page('x'), h('max-age=0')).message, /turns HSTS off/);
  assert.match(runOn(check, page('x'), h('includeSubDomains')).message, /no valid max-age/);
  assert.deepEqual(parseHsts('max-age="300" ; preload, max-age=1'), {
    maxAge: 300,
    includeSubDomains: false,
    preload: true,
  });
});
