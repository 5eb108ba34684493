import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './server_signature.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const h = (extra: Record<string, string>) => ({ 'content-type': 'text/html', ...extra });

test('server_signature: passes when the Server header has no version', () => {
  assert.equal(runOn(check, page(''), { headers: h({ server: 'nginx' }) }).passed, true);
  assert.equal(runOn(check, page(''), { headers: h({}) }).passed, true);
});

test('server_signature: fails when Server or X-Powered-By names a version', () => {
  const r = runOn(check, page(''), {
    headers: h({ server: 'Apache/2.4.41 (Ubuntu)', 'x-powered-by': 'PHP/8.1.2' }),
  });
  assert.equal(r.passed, false);
  assert.deepEqual(r.value, ['server: Apache/2.4.41 (Ubuntu)', 'x-powered-by: PHP/8.1.2']);
});

test('server_signature: X-AspNet-Version always leaks; header names are case-insensitive', () => {
  assert.equal(runOn(check, page(''), { headers: h({ 'X-AspNet-Version': 'four' }) }).passed, false);
  assert.equal(runOn(check, page(''), { headers: h({ 'X-Powered-By': 'Express' }) }).passed, true);
});
