import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './structured_data.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('structured_data: passes with JSON-LD or Open Graph', () => {
  const r = runOn(check, page('', '<script type="application/ld+json">{"@type":"Bakery"}</script>'));
  assert.equal(r.passed, true);
  assert.deepEqual(r.value, ['JSON-LD (1)']);
  assert.equal(runOn(check, page('', '<meta property="og:title" content="x">')).passed, true);
});

test('structured_data: fails without any', () => {
  assert.equal(runOn(check, page('<p>plain</p>')).passed, false);
});

test('structured_data: microdata and twitter cards count', () => {
  const r = runOn(check, page('<div itemscope itemtype="https://schema.org/Person">x</div>'));
  assert.deepEqual(r.value, ['Microdata (https://schema.org/Person)']);
  assert.equal(runOn(check, page('', '<meta name="twitter:card" content="summary">')).passed, true);
});
