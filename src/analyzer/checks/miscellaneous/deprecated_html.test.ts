import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './deprecated_html.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('deprecated_html: passes with current HTML', () => {
  assert.equal(runOn(check, page('<p><s>old</s> <abbr>HTML</abbr></p>')).passed, true);
});

test('deprecated_html: fails with font and center, counted', () => {
  const r = runOn(check, page('<center><font>a</font><font>b</font></center>'));
  assert.equal(r.passed, false);
  assert.deepEqual(r.value, ['<font>', '<center>']);
});

test('deprecated_html: tag names are case-insensitive; SVG elements do not count', () => {
  assert.equal(runOn(check, page('<MARQUEE>hi</MARQUEE>')).passed, false);
  assert.equal(runOn(check, page('<svg><font></font></svg>')).passed, true);
});
