import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './title.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('title: passes with one title of a good length', () => {
  const r = runOn(check, page('<p>x</p>', '<title>Fresh bread &amp; pastries</title>'));
  assert.equal(r.passed, true);
  assert.equal(r.value, 'Fresh bread & pastries');
  assert.equal(r.title, check.title);
});

test('title: fails when missing', () => {
  const r = runOn(check, '<html><head></head><body>x</body></html>');
  assert.equal(r.passed, false);
  assert.match(r.message, /no <title>/);
});

test('title: fails when too long, and the message says how long', () => {
  const r = runOn(check, page('', `<title>${'a'.repeat(72)}</title>`));
  assert.equal(r.passed, false);
  assert.equal(r.message, 'The title is 72 characters long; keep it between 1 and 60.');
  assert.equal(r.title, check.failTitle);
});

test('title: fails with two titles; an SVG title does not count', () => {
  assert.equal(runOn(check, page('', '<title>A</title><title>B</title>')).passed, false);
  assert.equal(runOn(check, page('<svg><title>icon</title></svg>', '<title>A</title>')).passed, true);
});

test('title: empty title fails; thresholds are configurable', () => {
  assert.equal(runOn(check, page('', '<title>  </title>')).passed, false);
  assert.equal(
    runOn(check, page('', '<title>Hello world</title>'), {}, { 'title.max_length': 5 }).passed,
    false,
  );
});
