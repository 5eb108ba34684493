import { test } from 'node:test';
import assert from 'node:assert/strict';
import check, { titleWords } from './content_keywords.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('content_keywords: passes when a title word is in the text', () => {
  const r = runOn(check, page('<p>We bake sourdough every morning.</p>', '<title>Sourdough Bakery</title>'));
  assert.equal(r.passed, true);
  assert.deepEqual(r.value, ['sourdough']);
});

test('content_keywords: fails when no title word is in the text (substrings do not count)', () => {
  const r = runOn(check, page('<p>We sell artisanal things.</p>', '<title>Art Gallery</title>'));
  assert.equal(r.passed, false);
  assert.match(r.message, /art, gallery/);
});

test('content_keywords: stopwords and short words are ignored; no title is not applicable', () => {
  assert.deepEqual(titleWords('The Best of the Web — and more', 3), ['best', 'web']);
  const r = runOn(check, '<html><body><p>hello</p></body></html>');
  assert.equal(r.passed, null);
  assert.equal(r.inconclusive_reason, 'not_applicable');
});

test('content_keywords: CJK titles match inside unspaced text; text in scripts does not count', () => {
  assert.equal(runOn(check, page('<p>这是新闻网站的首页</p>', '<title>新闻</title>', 'zh')).passed, true);
  assert.equal(
    runOn(check, page('<script>var croissant=1</script><p>x</p>', '<title>Croissant</title>')).passed,
    false,
  );
});
