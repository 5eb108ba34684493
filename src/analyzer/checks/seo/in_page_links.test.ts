import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './in_page_links.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('in_page_links: passes under the limit', () => {
  const r = runOn(
    check,
    page('<a href="/a">a</a><a href="https://www.example.com/b">b</a><a href="https://x.org">x</a>'),
  );
  assert.equal(r.passed, true);
  assert.equal(r.message, 'The page has 3 links (2 internal, 1 external).');
});

test('in_page_links: fails over 150 links', () => {
  const r = runOn(check, page('<a href="/p">p</a>'.repeat(151)));
  assert.equal(r.passed, false);
  assert.equal(r.value, 151);
});

test('in_page_links: anchors without href do not count; threshold configurable', () => {
  assert.equal(runOn(check, page('<a name="top">x</a>'.repeat(200))).value, 0);
  assert.equal(
    runOn(check, page('<a href="/p">p</a>'.repeat(3)), {}, { 'in_page_links.max_links': 2 }).passed,
    false,
  );
});
