// Secrets at rest (src/services/shared/secrets.ts): AES-256-GCM with the configured key — a
// round trip, a fresh IV each time, and a wrong key or a changed byte refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decryptSecret, encryptSecret } from '../../src/services/shared/secrets.js';

const KEY = '01'.repeat(32);

test('round trip; the same text twice gives two ciphertexts without the plain text', () => {
  const a = encryptSecret(KEY, 'hunter2 ✓');
  const b = encryptSecret(KEY, 'hunter2 ✓');
  assert.notEqual(a, b);
  assert.ok(!a.includes('hunter2'));
  assert.match(a, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.equal(decryptSecret(KEY, a), 'hunter2 ✓');
});

test('another key, a changed byte or another format is refused', () => {
  const c = encryptSecret(KEY, 'secret');
  assert.throws(() => decryptSecret('02'.repeat(32), c));
  const parts = c.split('.');
  const data = Buffer.from(parts[3]!, 'base64url');
  data[0] = data[0]! ^ 1;
  parts[3] = data.toString('base64url');
  assert.throws(() => decryptSecret(KEY, parts.join('.')));
  assert.throws(() => decryptSecret(KEY, 'secret'));
});
