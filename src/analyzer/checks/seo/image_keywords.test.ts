import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './image_keywords.js';
import { page, runOn } from '../test-helpers.js';

test('image_keywords: passes when every image has alt (empty alt is fine)', () => {
  assert.equal(runOn(check, page('<img src="a.png" alt="A loaf"><img src="line.png" alt="">')).passed, true);
});

test('image_keywords: fails and lists the images without alt', () => {
  const r = runOn(check, page('<img src="a.png" alt="ok"><img src="/b.jpg"><img src="c.gif">'));
  assert.equal(r.passed, false);
  assert.equal(r.value, 2);
  assert.deepEqual(r.details, { type: 'list', items: ['/b.jpg', 'c.gif'] });
});

test('image_keywords: no images passes; the list is capped at 50', () => {
  assert.equal(runOn(check, page('<p>text</p>')).passed, true);
  const r = runOn(check, page('<img src="x.png">'.repeat(60)));
  assert.equal(r.details?.type === 'list' && r.details.truncated, 10);
});
