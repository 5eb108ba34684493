import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './defer_javascript.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('defer_javascript: passes with deferred, async and module scripts', () => {
  const head =
    '<script src="/a.js" defer></script><script async src="/b.js"></script><script type="module" src="/c.js"></script>';
  assert.equal(runOn(check, page('', head)).passed, true);
});

test('defer_javascript: fails with a plain script in the head', () => {
  const r = runOn(check, page('', '<script src="/jquery.js"></script>'));
  assert.equal(r.passed, false);
  assert.deepEqual(r.details, { type: 'list', items: ['https://example.com/jquery.js'] });
});

test('defer_javascript: scripts at the end of the body, inline scripts and JSON-LD are fine', () => {
  const head = '<script>var a=1</script><script type="application/ld+json">{}</script>';
  assert.equal(runOn(check, page('<p>x</p><script src="/late.js"></script>', head)).passed, true);
});
