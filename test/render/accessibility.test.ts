// The accessibility category (issue 21 §5, docs/rendering.md): a page with known axe-core
// violations served on 127.0.0.1 and audited in real headless Chromium scores as documented —
// each rule axe applied is a check `axe_<rule>` with its priority from axe's impact, the
// category score is the priority weights of the passed rules over those of all judged ones, and
// the checks enter the overall score like any other; the raw audit of the same page says the
// category is not judged ("needs render=1").
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../src/analyzer/index.js';
import { SCORING, scoreResults } from '../../src/analyzer/scoring.js';
import type { Renderer } from '../../src/render/browser.js';
import { chromiumSkip } from '../helpers/chromium.js';
import { testLookup } from '../helpers/config.js';
import { html, startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { testRenderer } from '../helpers/renderer.js';

// three planted violations: an image without alt (image-alt, critical), a page without lang
// (html-has-lang, serious) and a link without text (link-name, serious)
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><main><h1>Shop</h1><p>Chairs and tables, made by hand.</p>
<img src="/chair.png" width="10" height="10">
<a href="/tables"></a>
<a href="/about">About us</a>
<button type="button">Buy</button></main></body></html>`;

describe('accessibility scored in rendered audits', { skip: chromiumSkip }, () => {
  let site: FixtureServer;
  let renderer: Renderer;
  before(async () => {
    site = await startFixtureServer({ '/': html(PAGE) });
    renderer = testRenderer({ timeoutMs: 60_000 });
  });
  after(async () => {
    await renderer?.close();
    await site?.close();
  });
  const options = { allowPrivateHosts: true, lookup: testLookup, timeoutMs: 30_000 };

  test('axe violations are failed checks with priorities from their impact, and the category scores as documented', async () => {
    const report = await analyze(`${site.origin}/`, { ...options, render: (s) => renderer.render(s) });
    assert.equal(report.render?.status, 'completed', report.render?.reason);
    const a11y = Object.values(report.results).filter((r) => r.category === 'accessibility');
    const failed = Object.fromEntries(a11y.filter((r) => r.passed === false).map((r) => [r.id, r.priority]));
    assert.deepEqual(failed, { axe_image_alt: 'high', axe_html_has_lang: 'high', axe_link_name: 'high' });
    assert.ok(a11y.filter((r) => r.passed === true).length >= 5, 'the rules that passed are checks too');
    assert.ok(!a11y.some((r) => r.passed === null), 'only applied rules are listed');
    assert.deepEqual(report.results.axe_image_alt!.details, { type: 'list', items: ['img'] });
    // the category: passed weight / judged weight, as for every category
    let passedW = 0;
    let judgedW = 0;
    for (const r of a11y) {
      judgedW += SCORING.weights[r.priority];
      if (r.passed) passedW += SCORING.weights[r.priority];
    }
    const cat = report.categories.accessibility;
    assert.equal(cat.score, Math.round((passedW / judgedW) * 100));
    assert.equal(cat.failed, 3);
    assert.equal(cat.not_judged, undefined);
    assert.ok(cat.score > 0 && cat.score < 100, String(cat.score));
    // it enters the overall score: the same results with the three violations fixed score higher
    const all = Object.values(report.results);
    assert.equal(report.score, scoreResults(all).score);
    const fixed = all.map((r) => (r.category === 'accessibility' ? { ...r, passed: true } : r));
    assert.ok(scoreResults(fixed).score > report.score, 'the failed accessibility checks lower the score');
    // the render section keeps its list of violations
    assert.equal(report.render?.accessibility?.counts.critical, 1);
  });

  test('the raw audit of the same page does not judge accessibility: "needs render=1"', async () => {
    const report = await analyze(`${site.origin}/`, options);
    assert.deepEqual(report.categories.accessibility, {
      score: 0,
      passed: 0,
      failed: 0,
      not_judged: 'needs render=1',
    });
    assert.ok(!Object.values(report.results).some((r) => r.category === 'accessibility'));
  });
});
