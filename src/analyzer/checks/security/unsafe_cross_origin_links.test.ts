import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './unsafe_cross_origin_links.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('unsafe_cross_origin_links: passes with noopener or noreferrer', () => {
  const body =
    '<a href="https://x.org/" target="_blank" rel="noopener">x</a><a href="https://y.org/" target="_blank" rel="nofollow NoReferrer">y</a>';
  assert.equal(runOn(check, page(body)).passed, true);
});

test('unsafe_cross_origin_links: fails for an external _blank link without rel', () => {
  const r = runOn(check, page('<a href="https://x.org/a" target="_BLANK">x</a>'));
  assert.equal(r.passed, false);
  assert.deepEqual(r.details, { type: 'list', items: ['https://x.org/a'] });
});

test('unsafe_cross_origin_links: same-site links and other targets are fine', () => {
  const body =
    '<a href="/a" target="_blank">a</a><a href="https://www.example.com/b" target="_blank">b</a><a href="https://x.org" target="_self">c</a>';
  assert.equal(runOn(check, page(body)).passed, true);
});
