import { test } from 'node:test';
import assert from 'node:assert/strict';
import check, { isGeneric } from './link_text.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('link_text: descriptive links pass', () => {
  const r = runOn(
    check,
    page('<a href="/pricing">Pricing for teams</a><a href="/report">Read the 2024 report</a>'),
  );
  assert.equal(r.passed, true);
  assert.equal(r.message, 'All 2 links have descriptive text.');
});

test('link_text: generic phrases fail, in the page language', () => {
  const r = runOn(
    check,
    page(
      '<a href="/a">Click here</a><a href="/b">Read more »</a><a href="/c">Our services</a><a href="https://example.org/x">https://example.org/x</a>',
    ),
  );
  assert.equal(r.passed, false);
  assert.equal(r.value, 3);
  assert.match(
    r.message,
    /^3 of 4 links have generic text \("Click here", "Read more »", "https:\/\/example.org\/x"\)/,
  );
  const de = runOn(
    check,
    page('<a href="/a">Hier klicken</a><a href="/b">Weiterlesen</a>', '<title>t</title>', 'de'),
  );
  assert.equal(de.value, 2);
  const fr = runOn(check, page('<a href="/a">En savoir plus</a>', '<title>t</title>', 'fr'));
  assert.equal(fr.passed, false);
});

test('link_text: edge — a link lang overrides the page; nofollow, in-page and javascript links are skipped', () => {
  // "Start" is generic in English but a normal word in German
  assert.equal(runOn(check, page('<a href="/x" lang="de-DE">Start</a>')).passed, true);
  assert.equal(runOn(check, page('<a href="/x" lang="en-US">Start</a>')).passed, false);
  const r = runOn(
    check,
    page(
      '<a href="/x" rel="nofollow">click here</a><a href="#top">here</a><a href="javascript:;">more</a><a href="/y">Docs</a>',
    ),
  );
  assert.equal(r.passed, true);
  assert.equal(runOn(check, page('<p>no links</p>')).inconclusive_reason, 'not_applicable');
  assert.equal(
    runOn(check, page('<a href="/a">x</a><a href="/b">more</a>'), {}, { 'link_text.max_generic': 1 }).passed,
    true,
  );
});

test('link_text: phrase lists per language (en, de, fr, es, pt, it, nl)', () => {
  const cases: [string, string][] = [
    ['learn more', 'en'],
    ['mehr erfahren', 'de'],
    ['cliquez ici', 'fr'],
    ['leer más', 'es'],
    ['saiba mais', 'pt'],
    ['clicca qui', 'it'],
    ['lees meer', 'nl'],
  ];
  for (const [t, l] of cases) assert.equal(isGeneric(t, l), true, `${l}: ${t}`);
  assert.equal(isGeneric('klik hier', null), true);
  assert.equal(isGeneric('start', 'de'), false);
});

test('link_text: text that is code is not generic (element names in technical documentation)', () => {
  const r = runOn(
    check,
    page(
      '<p>See <a href="/el/link"><code>link</code></a>, <code><a href="/el/details">details</a></code>, ' +
        '<a href="/el/more"> <code>more</code> </a> and <a href="/el/a"><code>a</code></a>.</p>',
    ),
  );
  assert.equal(r.passed, true, r.message);
  assert.equal(r.message, 'All 4 links have descriptive text.');
  // text partly outside <code> is prose again, and an earlier <code> does not leak into later links
  const mixed = runOn(
    check,
    page(
      '<p><code>x</code> <a href="/a">read <code>more</code></a> <a href="/b">here</a> <a href="/c"><img alt="more"><code>z</code></a></p>',
    ),
  );
  assert.equal(mixed.passed, false);
  assert.ok(mixed.details?.type === 'table');
  assert.deepEqual(
    mixed.details.rows.map((row) => row[1]),
    ['read more', 'here'],
  );
});
