import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './render_blocking.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const css = (n: number, media = '') => `<link rel="stylesheet" href="/s${n}.css"${media}>`;

test('render_blocking: deferred scripts and few stylesheets pass', () => {
  const r = runOn(
    check,
    page(
      'x',
      `<title>t</title>${css(1)}<script src="/a.js" defer></script><script type="module" src="/m.js"></script>`,
    ),
  );
  assert.equal(r.passed, true);
  assert.match(
    r.message,
    /^1 resource in <head> blocks the first render \(0 synchronous scripts and 1 stylesheet\), within the 3 allowed\.$/,
  );
});

test('render_blocking: too many blocking resources fail, listed', () => {
  const r = runOn(
    check,
    page(
      'x',
      `<title>t</title>${css(1)}${css(2)}${css(3)}<script src="/a.js"></script><script src="/b.js"></script>`,
    ),
  );
  assert.equal(r.passed, false);
  assert.equal(r.value, 5);
  assert.match(
    r.message,
    /^5 resources in <head> block the first render \(2 synchronous scripts and 3 stylesheets\); at most 3 allowed/,
  );
  assert.ok(r.details?.type === 'table' && r.details.rows.length === 5);
});

test('render_blocking: edge — print/conditional media, alternate stylesheets, JSON-LD and body scripts do not count', () => {
  const head = `<title>t</title>${css(1, ' media="print"')}${css(2, ' media="(min-width: 900px)"')}<link rel="alternate stylesheet" href="/alt.css"><script type="application/ld+json">{}</script>${css(3)}`;
  const r = runOn(check, page('<script src="/late.js"></script>', head));
  assert.equal(r.value, 1);
  assert.equal(
    runOn(check, page('x', `${css(1)}${css(2)}`), {}, { 'render_blocking.max_resources': 1 }).passed,
    false,
  );
});
