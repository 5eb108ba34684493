import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './open_graph.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const og = (p: string, c: string) => `<meta property="${p}" content="${c}">`;
const complete =
  og('og:title', 'Fresh bread') +
  og('og:description', 'Daily') +
  og('og:image', 'https://example.com/i.jpg') +
  og('og:url', 'https://example.com/');

test('open_graph: the four tags with absolute URLs pass', () => {
  const r = runOn(check, page('x', `<title>t</title>${complete}${og('og:type', 'website')}`));
  assert.equal(r.passed, true);
  assert.equal(r.message, 'og:title, og:description, og:image and og:url are present and valid.');
  assert.deepEqual(r.value, []);
});

test('open_graph: none, missing or relative tags fail', () => {
  const none = runOn(check, page('x'));
  assert.equal(none.passed, false);
  assert.match(none.message, /no Open Graph tags/);
  const r = runOn(
    check,
    page('x', og('og:title', 'T') + og('og:image', '/i.jpg') + og('og:description', '')),
  );
  assert.equal(r.passed, false);
  assert.equal(
    r.message,
    'Open Graph tags are incomplete: missing og:description, og:url; og:image is not an absolute http(s) URL.',
  );
  assert.deepEqual(r.value, ['og:description', 'og:url', 'og:image']);
});

test('open_graph: edge — name="og:…" is accepted; a missing og:type is advice only', () => {
  const byName = complete.replace(/property=/g, 'name=');
  const r = runOn(check, page('x', byName));
  assert.equal(r.passed, true);
  assert.match(r.message, /Consider og:type/);
});
