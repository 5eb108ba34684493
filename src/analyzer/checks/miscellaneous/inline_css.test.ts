import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './inline_css.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('inline_css: passes without style attributes (style blocks are fine)', () => {
  assert.equal(runOn(check, page('<p class="a">x</p>', '<style>p{color:red}</style>')).passed, true);
});

test('inline_css: fails with style attributes and counts them by element', () => {
  const r = runOn(check, page('<p style="color:red">a</p><p style="margin:0">b</p><div style="x">c</div>'));
  assert.equal(r.passed, false);
  assert.deepEqual(r.details, {
    type: 'table',
    headings: ['element', 'count'],
    rows: [
      ['<p>', 2],
      ['<div>', 1],
    ],
  });
});

test('inline_css: empty style attributes do not count', () => {
  assert.equal(runOn(check, page('<p style="">a</p><p style=" ">b</p>')).passed, true);
});
