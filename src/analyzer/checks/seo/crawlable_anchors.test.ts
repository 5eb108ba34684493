import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './crawlable_anchors.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('crawlable_anchors: real hrefs, mailto, in-page and named anchors pass', () => {
  const r = runOn(
    check,
    page(
      '<a href="/a">A</a><a href="https://x.org">X</a><a href="mailto:a@b.c">mail</a><a href="#top">top</a><a name="top"></a><a role="button">Act</a>',
    ),
  );
  assert.equal(r.passed, true);
  assert.equal(r.message, 'All 6 links have a crawlable href.');
});

test('crawlable_anchors: javascript:, onclick without href and "#"+onclick fail', () => {
  const r = runOn(
    check,
    page(
      '<a href="javascript:void(0)">JS</a><a onclick="go()">Go</a><a class="x">Placeholder</a><a href="#" onclick="go()">Hash</a><a href="/ok">ok</a>',
    ),
  );
  assert.equal(r.passed, false);
  assert.equal(r.value, 3);
  assert.match(r.message, /^3 of 5 links cannot be followed/);
  assert.ok(r.details?.type === 'table');
  assert.deepEqual(
    r.details.rows.map((row) => row[2]),
    ['javascript: URL', 'no href, only an onclick handler', 'href="#" with an onclick handler'],
  );
});

test('crawlable_anchors: anchors that are not links — no href and no handler, or the current page — pass', () => {
  const r = runOn(
    check,
    page(
      '<nav><a aria-current="page">Home</a><a href="#" aria-current="page">Here</a><a href="/about">About</a></nav>' +
        '<a class="tab">placeholder</a><a>disabled step</a>',
    ),
  );
  assert.equal(r.passed, true, r.message);
  assert.equal(r.message, 'All 5 links have a crawlable href.');
  // javascript: hrefs still fail, current page or not; aria-current="false" is no exemption
  const js = runOn(
    check,
    page(
      '<a href="javascript:void(0)" aria-current="page">Home</a><a onclick="go()" aria-current="false">x</a>',
    ),
  );
  assert.equal(js.value, 2);
});

test('crawlable_anchors: edge — no links at all is not applicable; file: URLs fail', () => {
  assert.equal(runOn(check, page('<p>no links</p>')).inconclusive_reason, 'not_applicable');
  assert.equal(runOn(check, page('<a href="file:///C:/doc.pdf">doc</a>')).passed, false);
  assert.equal(runOn(check, page('<a href=" javascript:alert(1)">x</a>')).passed, false);
});
