import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './text_compression.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const h = (ce?: string) => ({
  'content-type': 'text/html',
  ...(ce === undefined ? {} : { 'content-encoding': ce }),
});

test('text_compression: passes with br or gzip', () => {
  assert.equal(runOn(check, page(''), { headers: h('br') }).passed, true);
  assert.equal(runOn(check, page(''), { headers: h('GZIP') }).value, 'gzip');
});

test('text_compression: fails without Content-Encoding', () => {
  const r = runOn(check, page(''), { headers: h() });
  assert.equal(r.passed, false);
  assert.match(r.message, /uncompressed/);
});

test('text_compression: identity fails; a chain with zstd passes', () => {
  assert.equal(runOn(check, page(''), { headers: h('identity') }).passed, false);
  assert.equal(runOn(check, page(''), { headers: h('identity, zstd') }).passed, true);
});
