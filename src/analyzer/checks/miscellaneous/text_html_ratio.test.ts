import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './text_html_ratio.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('text_html_ratio: passes with mostly text', () => {
  assert.equal(runOn(check, page(`<p>${'lorem ipsum '.repeat(100)}</p>`)).passed, true);
});

test('text_html_ratio: fails when markup dominates', () => {
  const r = runOn(check, page(`<div class="wrapper"><span class="x"></span></div>`.repeat(50) + '<p>hi</p>'));
  assert.equal(r.passed, false);
  assert.match(r.message, /aim for at least 10%/);
});

test('text_html_ratio: inline script text is not text', () => {
  assert.equal(runOn(check, page(`<script>${'var a = 1; '.repeat(200)}</script><p>hello</p>`)).passed, false);
});
