import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './content_security_policy.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

const csp = (v: string) => ({ headers: { 'content-type': 'text/html', 'content-security-policy': v } });

test('content_security_policy: a nonce-based policy passes', () => {
  const r = runOn(
    check,
    page('x'),
    csp("script-src 'nonce-abc' 'strict-dynamic' https:; object-src 'none'; base-uri 'none'"),
  );
  assert.equal(r.passed, true);
  assert.equal(r.message, 'A Content-Security-Policy (header) restricts scripts.');
  const self = runOn(check, page('x'), csp("default-src 'self'"));
  assert.equal(self.passed, true);
});

test('content_security_policy: missing, report-only, unsafe-inline and wildcards fail', () => {
  assert.match(runOn(check, page('x')).message, /has no Content-Security-Policy/);
  assert.match(
    runOn(check, page('x'), { headers: { 'content-security-policy-report-only': "default-src 'self'" } })
      .message,
    /only a Content-Security-Policy-Report-Only/,
  );
  const inline = runOn(check, page('x'), csp("script-src 'self' 'unsafe-inline'"));
  assert.equal(inline.passed, false);
  assert.match(inline.message, /script-src allows 'unsafe-inline' without a nonce or hash/);
  assert.match(runOn(check, page('x'), csp('default-src *')).message, /allows scripts from \*/);
  assert.match(
    runOn(check, page('x'), csp("frame-ancestors 'none'")).message,
    /neither script-src nor default-src/,
  );
});

test('content_security_policy: edge — a <meta http-equiv> policy counts; unsafe-inline with a hash is fine', () => {
  const meta = page(
    'x',
    `<title>t</title><meta http-equiv="Content-Security-Policy" content="script-src 'self'">`,
  );
  const r = runOn(check, meta);
  assert.equal(r.passed, true);
  assert.match(r.message, /<meta http-equiv>/);
  assert.equal(runOn(check, page('x'), csp("script-src 'unsafe-inline' 'sha256-abc='")).passed, true);
  // a weak policy plus a strong one: the strong one protects
  assert.equal(runOn(check, page('x'), csp("default-src *, script-src 'self'")).passed, true);
});
