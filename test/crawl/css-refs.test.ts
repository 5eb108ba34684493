// The stylesheet scanner of the check step (src/crawl/css-refs.ts; docs/sites.md "Links and
// resources checked"): the font files of @font-face rules and the @imports, with comments,
// quotes, escapes, several src URLs, format()/local()/tech(), data: URLs and nested blocks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_STYLESHEET_REFS, stylesheetRefs } from '../../src/crawl/css-refs.js';

const BASE = 'https://example.com/css/site.css';

test('stylesheetRefs: each src URL of a @font-face, resolved against the stylesheet, format() and local() left out', () => {
  const css = `
    @font-face {
      font-family: "Body";
      src: local("Body Regular"), url("../fonts/body.woff2") format("woff2"),
           url(../fonts/body.woff) format('woff'), url('/fonts/body.ttf') format("truetype") tech(variations);
      font-display: swap;
    }
    body { font-family: Body, sans-serif; background: url(/img/bg.png); }`;
  assert.deepEqual(stylesheetRefs(css, BASE), {
    fonts: [
      'https://example.com/fonts/body.woff2',
      'https://example.com/fonts/body.woff',
      'https://example.com/fonts/body.ttf',
    ],
    imports: [],
  });
});

test('stylesheetRefs: comments and strings are not rules; a url() outside src (or outside @font-face) is not a font', () => {
  const css = `
    /* @font-face { src: url(commented.woff2) } */
    .a::before { content: "@font-face { src: url(in-a-string.woff2) }"; }
    @font-face {
      /* src: url(commented-in-rule.woff2); */
      font-family: X; /* a ; in a comment */
      unicode-range: U+0000-00FF;
      src: /* before */ url( "x.woff2" /* inside */ );
      font-feature-settings: "src" 1;
    }
    .b { src: url(not-a-font.woff2); }`;
  assert.deepEqual(stylesheetRefs(css, BASE).fonts, ['https://example.com/css/x.woff2']);
});

test('stylesheetRefs: several @font-face rules, nested in @media/@supports/@layer, each URL once, fragments dropped', () => {
  const css = `
    @font-face{font-family:A;src:url(a.woff2)format("woff2")}
    @media (min-width: 40em) { @supports (display: grid) { @font-face { font-family: B; src: url(b.woff2#x); } } }
    @layer base { @font-face { font-family: A2; src: url(a.woff2); } }
    @font-face { font-family: C; src: url(data:font/woff2;base64,AAAA) format("woff2"), url("c\\2e woff2"); }
    @font-face { font-family: D; SRC : URL(D.woff2); }`;
  assert.deepEqual(stylesheetRefs(css, BASE).fonts, [
    'https://example.com/css/a.woff2',
    'https://example.com/css/b.woff2',
    'https://example.com/css/c.woff2',
    'https://example.com/css/D.woff2',
  ]);
});

test('stylesheetRefs: @import by url() or by string, top level only; an absolute URL on another host kept', () => {
  const css = `
    @charset "utf-8";
    @import url("reset.css") screen;
    @import 'https://fonts.example.net/css2?family=Inter';
    @import url(theme.css) layer(theme);
    @media print { @import "ignored.css"; }
    @font-face { font-family: E; src: url(https://cdn.example.org/e.woff2) }`;
  assert.deepEqual(stylesheetRefs(css, BASE), {
    fonts: ['https://cdn.example.org/e.woff2'],
    imports: [
      'https://example.com/css/reset.css',
      'https://fonts.example.net/css2?family=Inter',
      'https://example.com/css/theme.css',
    ],
  });
});

test('stylesheetRefs: broken CSS (an unclosed rule or string, a bad url) neither throws nor invents URLs', () => {
  assert.deepEqual(stylesheetRefs('@font-face { src: url(ok.woff2), url(bad url.woff2); ', BASE).fonts, [
    'https://example.com/css/ok.woff2',
  ]);
  assert.deepEqual(stylesheetRefs('@font-face { src: url("unclosed.woff2', BASE).fonts, [
    'https://example.com/css/unclosed.woff2',
  ]);
  assert.deepEqual(stylesheetRefs('@font-face;  .x { src: url(a.woff2) }', BASE).fonts, []);
  assert.deepEqual(stylesheetRefs('', BASE), { fonts: [], imports: [] });
  assert.deepEqual(stylesheetRefs('@font-face { src: url(javascript:alert(1)) }', BASE).fonts, []);
});

test(`stylesheetRefs: at most ${MAX_STYLESHEET_REFS} fonts from one stylesheet`, () => {
  const rules = Array.from(
    { length: 80 },
    (_, i) => `@font-face { font-family: F${i}; src: url(f${i}.woff2); }`,
  );
  const fonts = stylesheetRefs(rules.join('\n'), BASE).fonts;
  assert.equal(fonts.length, MAX_STYLESHEET_REFS);
  assert.equal(fonts[0], 'https://example.com/css/f0.woff2');
});
