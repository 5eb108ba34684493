import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './canonical.js';
import { parseLinkHeader } from '../../artifacts/link-header.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const at = { url: 'https://example.com/blog/post?utm_source=x' };

test('canonical: a self-referencing absolute canonical passes', () => {
  const r = runOn(
    check,
    page('x', '<title>t</title><link rel="canonical" href="https://example.com/blog/post?utm_source=x">'),
    at,
  );
  assert.equal(r.passed, true);
  assert.match(r.message, /is itself/);
  const q = runOn(check, page('x', '<link rel="canonical" href="https://example.com/blog/post">'), at);
  assert.equal(q.passed, true);
  assert.match(q.message, /without its query/);
});

test('canonical: missing, relative, or pointing to the root fails', () => {
  assert.match(runOn(check, page('x'), at).message, /declares no canonical/);
  const rel = runOn(check, page('x', '<link rel="canonical" href="/blog/post">'), at);
  assert.equal(rel.passed, false);
  assert.match(rel.message, /is relative/);
  const root = runOn(check, page('x', '<link rel="canonical" href="https://example.com/">'), at);
  assert.equal(root.passed, false);
  assert.match(root.message, /site's root/);
});

test('canonical: HTML and Link header that disagree conflict; body links are ignored', () => {
  const r = runOn(
    check,
    page(
      '<link rel="canonical" href="https://example.com/other">',
      '<link rel="canonical" href="https://example.com/blog/post">',
    ),
    {
      ...at,
      headers: { 'content-type': 'text/html', link: '<https://example.com/b>; rel="canonical"' },
    },
  );
  assert.equal(r.passed, false);
  assert.match(
    r.message,
    /2 conflicting canonical URLs \(https:\/\/example.com\/blog\/post, https:\/\/example.com\/b\)/,
  );
});

test('canonical: edge cases — https page to its http twin fails; another site passes with a note', () => {
  assert.match(
    runOn(check, page('x', '<link rel="canonical" href="http://example.com/blog/post">'), at).message,
    /insecure http/,
  );
  const other = runOn(check, page('x', '<link rel="canonical" href="https://partner.example.org/post">'), at);
  assert.equal(other.passed, true);
  assert.match(other.message, /another site/);
  assert.equal(runOn(check, page('x', '<link rel="canonical" href="http://[bad">'), at).passed, false);
});

test('canonical: Link header parsing', () => {
  assert.deepEqual(parseLinkHeader('<https://a/>; rel="canonical", <https://b/>;rel=alternate;hreflang=de'), [
    { href: 'https://a/', rel: ['canonical'], hreflang: null },
    { href: 'https://b/', rel: ['alternate'], hreflang: 'de' },
  ]);
});
