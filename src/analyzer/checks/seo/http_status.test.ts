import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './http_status.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('http_status: 200 passes', () => {
  const r = runOn(check, page('<p>hi</p>'));
  assert.equal(r.passed, true);
  assert.equal(r.value, 200);
  assert.equal(r.message, 'The page answered 200.');
});

test('http_status: 404 and 500 fail with the status in the message', () => {
  const r = runOn(check, page('<h1>Not found</h1>'), { status: 404 });
  assert.equal(r.passed, false);
  assert.equal(r.value, 404);
  assert.match(r.message, /404 Not Found, a client error/);
  assert.match(runOn(check, page('x'), { status: 500 }).message, /500 Internal Server Error, a server error/);
});

test('http_status: a blocked 403 is still judged (header-only) and says it may be a bot block', () => {
  const r = runOn(check, page('x'), { status: 403 });
  assert.equal(r.passed, false);
  assert.match(r.message, /blocking automated visitors/);
  assert.equal(check.needsContent, false);
});
