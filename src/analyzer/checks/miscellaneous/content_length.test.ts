import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './content_length.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('content_length: passes with 500 words', () => {
  assert.equal(runOn(check, page(`<p>${'word '.repeat(500)}</p>`)).passed, true);
});

test('content_length: fails with a short page', () => {
  const r = runOn(check, page('<p>Just a few words here.</p>'));
  assert.equal(r.passed, false);
  assert.equal(r.value, 5);
});

test('content_length: scripts, styles and the head do not count; inline tags do not split words', () => {
  const r = runOn(check, page('<style>a b c</style><script>x y z</script><p><b>one</b>two three</p>'));
  assert.equal(r.value, 2);
});
