// API keys and report passwords: generation, hashing and constant-time comparison.
import {
  createHash,
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

/** Keys are `pg_` + base64url of 24 random bytes (192 bits): 35 characters. */
export const KEY_PREFIX = 'pg_';
const KEY_BYTES = 24;
/** characters kept for listing (`pg_` + 7 of the 32 random ones: 42 of 192 bits) */
export const KEY_DISPLAY_LENGTH = 10;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(KEY_BYTES).toString('base64url');
}

/** SHA-256 (hex) — a fast hash is enough for a 192-bit random secret: no guessing to slow down. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyDisplayPrefix(key: string): string {
  return key.slice(0, KEY_DISPLAY_LENGTH);
}

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

// Passwords: scrypt (memory-hard) with a 16-byte random salt, stored as
// `scrypt$<N>$<r>$<p>$<salt b64url>$<hash b64url>` so parameters can change later.
const N = 16384;
const R = 8;
const P = 1;
const KEYLEN = 32;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFC'), salt, keylen, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEYLEN, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (!Number.isInteger(n) || !Number.isInteger(r) || !Number.isInteger(p) || expected.length === 0)
    return false;
  const actual = await scrypt(password, salt, expected.length, { N: n, r, p, maxmem: 256 * 1024 * 1024 });
  return timingSafeEqual(actual, expected);
}
