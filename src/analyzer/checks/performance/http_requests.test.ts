import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './http_requests.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('http_requests: passes with a few resources', () => {
  const r = runOn(
    check,
    page('<img src="a.png"><script src="/app.js"></script>', '<link rel="stylesheet" href="/s.css">'),
  );
  assert.equal(r.passed, true);
  assert.equal(r.value, 3);
  assert.equal(r.message, 'The page references 3 resources (1 script, 1 stylesheet, 1 image).');
});

test('http_requests: fails over 50', () => {
  const imgs = Array.from({ length: 51 }, (_, i) => `<img src="/i${i}.png" alt="">`).join('');
  assert.equal(runOn(check, page(imgs)).passed, false);
});

test('http_requests: the same URL counts once; inline scripts and data: images do not count', () => {
  const r = runOn(
    check,
    page('<img src="/a.png">'.repeat(60) + '<script>1</script><img src="data:image/png;base64,AA">'),
  );
  assert.equal(r.value, 1);
});
