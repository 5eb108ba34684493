import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './lazy_images.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const img = (n: number, lazy: boolean) =>
  `<img src="/i${n}.jpg" alt="" width="10" height="10"${lazy ? ' loading="lazy"' : ''}>`;

test('lazy_images: eager hero, lazy images further down pass', () => {
  const r = runOn(
    check,
    page([img(1, false), img(2, false), img(3, false), img(4, true), img(5, true)].join('')),
  );
  assert.equal(r.passed, true);
  assert.equal(r.message, '2 of 5 images load lazily; the images near the top load eagerly.');
});

test('lazy_images: offscreen eager images fail; a lazy first image fails', () => {
  const r = runOn(check, page([1, 2, 3, 4, 5, 6].map((n) => img(n, false)).join('')));
  assert.equal(r.passed, false);
  assert.equal(r.value, 3);
  assert.match(r.message, /3 of 6 images are likely offscreen yet load eagerly/);
  const hero = runOn(check, page(img(1, true)));
  assert.equal(hero.passed, false);
  assert.match(hero.message, /^The first image, the likely LCP element, has loading="lazy"/);
});

test('lazy_images: edge — no images is not applicable; data: URIs and the threshold', () => {
  assert.equal(runOn(check, page('<p>x</p>')).inconclusive_reason, 'not_applicable');
  const inline = '<img src="data:image/gif;base64,R0lGOD" alt="">';
  assert.equal(
    runOn(check, page([img(1, false), img(2, false), img(3, false), inline].join(''))).passed,
    true,
  );
  const many = page([1, 2, 3, 4].map((n) => img(n, false)).join(''));
  assert.equal(runOn(check, many, {}, { 'lazy_images.max_eager_offscreen': 1 }).passed, true);
});
