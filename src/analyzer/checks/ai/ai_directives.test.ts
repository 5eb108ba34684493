import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './ai_directives.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('ai_directives: noai and noimageai in the robots meta and X-Robots-Tag are reported, never failed', () => {
  const r = runOn(check, page('<meta name="robots" content="index, NoAI, noimageai">'), {
    headers: { 'content-type': 'text/html', 'x-robots-tag': 'otherbot: noimageai' },
  });
  assert.equal(r.passed, true);
  assert.deepEqual(r.value, ['noai (meta robots)', 'noimageai (meta robots)', 'noimageai (X-Robots-Tag)']);
  assert.match(r.message, /asks AI systems to keep away/);
});

test('ai_directives: a page without them says so; "noairbag" is not noai', () => {
  const r = runOn(check, page('<meta name="robots" content="noairbag, noindex">'));
  assert.equal(r.passed, true);
  assert.deepEqual(r.value, []);
  assert.match(r.message, /neither noai nor noimageai/);
});
