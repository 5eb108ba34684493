import { test } from 'node:test';
import assert from 'node:assert/strict';
import check from './plaintext_email.js';
import { page, runOn } from '../../../../test/helpers/checks.js';

test('plaintext_email: passes without addresses', () => {
  assert.equal(runOn(check, page('<p>Call us on 555-0100.</p>')).passed, true);
});

test('plaintext_email: fails on an address in the text or a mailto link', () => {
  assert.deepEqual(runOn(check, page('<p>Write to Info@Bakery.example.com today</p>')).details, {
    type: 'list',
    items: ['info@bakery.example.com'],
  });
  assert.equal(runOn(check, page('<a href="mailto:sales@example.com?subject=hi">Sales</a>')).passed, false);
});

test('plaintext_email: retina image names and addresses inside scripts do not count', () => {
  const body = '<img src="logo@2x.png"><p>logo@2x.png</p><script>var e = "a@b.com"</script>';
  assert.equal(runOn(check, page(body)).passed, true);
});
