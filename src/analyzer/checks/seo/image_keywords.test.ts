import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './image_keywords.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

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

test('image_keywords: one of many images without alt "has" (plural agreement)', () => {
  const r = runOn(check, page(`${'<img src="a.png" alt="ok">'.repeat(21)}<img src="/b.jpg">`));
  assert.equal(r.message, "1 of the page's 22 images has no alt attribute.");
  const one = runOn(check, page('<img src="a.png" alt="ok">'));
  assert.equal(one.message, "The page's only image has an alt attribute.");
});

test('image_keywords: images a visitor never sees are not judged, and are listed as information', () => {
  const html = page(
    '<noscript><img src="/pixel.gif"></noscript>' +
      '<div hidden><img src="/h1.png"></div>' +
      '<div style="color:red; display: none"><p><img src="/h2.png"></p></div>' +
      '<img src="/h3.png" style="DISPLAY:none">' +
      '<img src="/deco.png" role="presentation"><img src="/deco2.png" role="none">' +
      '<img src="/seen.png" alt="A chart">',
  );
  const r = runOn(check, html);
  assert.equal(r.passed, true, r.message);
  assert.equal(
    r.message,
    'The page\'s only image has an alt attribute. 6 images without alt are not judged: a visitor never sees them (hidden, inside <noscript>, or role="presentation").',
  );
  assert.ok(r.details?.type === 'table');
  assert.deepEqual(
    r.details.rows.map((row) => row[1]),
    [
      'inside <noscript>',
      'hidden (hidden attribute or display:none)',
      'hidden (hidden attribute or display:none)',
      'hidden (hidden attribute or display:none)',
      'role="presentation" (decorative)',
      'role="none" (decorative)',
    ],
  );
});

test('image_keywords: a hidden ancestor ends where it closes; hidden="until-found" and role=img still count', () => {
  const r = runOn(
    check,
    page(
      '<div hidden><img src="/in.png"></div><img src="/after.png">' +
        '<div hidden="until-found"><img src="/found.png"></div><img src="/img.png" role="img">',
    ),
  );
  assert.equal(r.passed, false);
  assert.deepEqual(r.details, { type: 'list', items: ['/after.png', '/found.png', '/img.png'] });
  assert.match(
    r.message,
    /^3 of the page's 3 images have no alt attribute\. 1 image without alt is not judged: a visitor never sees it/,
  );
});
