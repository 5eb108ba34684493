import { test } from 'node:test';
import assert from 'node:assert/strict';
import check, { legacyFormat } from './image_format.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('image_format: passes with WebP, AVIF and SVG', () => {
  assert.equal(
    runOn(check, page('<img src="a.webp"><img src="b.avif?v=2"><img src="logo.svg">')).passed,
    true,
  );
});

test('image_format: fails with JPEG and PNG and lists them', () => {
  const r = runOn(check, page('<img src="/photo.JPG"><img src="icon.png?x=1"><img src="a.webp">'));
  assert.equal(r.passed, false);
  assert.equal(r.value, 2);
  assert.deepEqual(r.details, {
    type: 'list',
    items: ['https://example.com/photo.JPG', 'https://example.com/icon.png?x=1'],
  });
});

test('image_format: data: URLs by type; <picture> with a WebP source is fine; unknown extensions are not judged', () => {
  assert.equal(legacyFormat('data:image/png;base64,AAAA'), 'png');
  assert.equal(legacyFormat('data:image/svg+xml,<svg/>'), null);
  assert.equal(legacyFormat('https://cdn.example.com/img/123'), null);
  const pic = '<picture><source type="image/webp" srcset="a.webp"><img src="a.jpg"></picture>';
  assert.equal(runOn(check, page(pic)).passed, true);
});
