import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './image_dimensions.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('image_dimensions: images with width and height pass', () => {
  const r = runOn(
    check,
    page(
      '<img src="/a.jpg" width="800" height="600" alt="a"><img src="/b.jpg" width="40px" height="40" alt="b">',
    ),
  );
  assert.equal(r.passed, true);
  assert.equal(r.message, 'All 2 images declare width and height.');
});

test('image_dimensions: a missing or non-numeric dimension fails, listed', () => {
  const r = runOn(
    check,
    page(
      '<img src="/a.jpg" width="800" alt="a"><img src="/b.jpg" alt="b"><img src="/c.jpg" width="100%" height="50" alt="c"><img src="/d.jpg" width="1" height="1" alt="">',
    ),
  );
  assert.equal(r.passed, false);
  assert.equal(r.value, 3);
  assert.match(r.message, /^3 of 4 images lack a numeric width and height/);
  assert.ok(r.details?.type === 'table');
  assert.deepEqual(r.details.rows[0], ['/a.jpg', '800', null]);
});

test('image_dimensions: edge — no images is not applicable; hidden and noscript images are ignored; threshold', () => {
  assert.equal(runOn(check, page('<p>text</p>')).inconclusive_reason, 'not_applicable');
  assert.equal(
    runOn(
      check,
      page('<noscript><img src="/p.gif"></noscript><img src="/x.png" width="2" height="2" alt="">'),
    ).passed,
    true,
  );
  assert.equal(
    runOn(check, page('<img src="/a.jpg" alt="a">'), {}, { 'image_dimensions.max_unsized': 1 }).passed,
    true,
  );
});
