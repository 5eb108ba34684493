// API keys and report passwords: generation, hashing and constant-time comparison.
import {
  createCipheriv,
  createDecipheriv,
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

/** scrypt's cost parameters; a stored hash names its own, so they can be raised later. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * People's passwords: OWASP's Password Storage Cheat Sheet (scrypt: N=2^17, r=8, p=1; 128 MiB a
 * hash). A report's password keeps the lighter default (it guards one page, not an account).
 */
export const PERSON_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };

export async function hashPassword(
  password: string,
  params: ScryptParams = { N, r: R, p: P },
): Promise<string> {
  const salt = randomBytes(16);
  const maxmem = 128 * params.N * params.r * 2;
  const hash = await scrypt(password, salt, KEYLEN, { ...params, maxmem });
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** true when a stored hash was made with weaker parameters than `params` (hash again at the next sign-in) */
export function needsRehash(stored: string, params: ScryptParams): boolean {
  const parts = stored.split('$');
  return Number(parts[1]) < params.N || Number(parts[2]) < params.r || Number(parts[3]) < params.p;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (!Number.isInteger(n) || !Number.isInteger(r) || !Number.isInteger(p) || expected.length === 0)
    return false;
  // never more than 2^20 (1 GiB): a stored value cannot make a verification exhaust memory
  if (n > 2 ** 20 || r > 16 || p > 16) return false;
  const actual = await scrypt(password, salt, expected.length, { N: n, r, p, maxmem: 128 * n * r * 2 });
  return timingSafeEqual(actual, expected);
}

// Secrets at rest (a project's crawl headers, cookies and basic-auth password): AES-256-GCM
// with the configuration's key (PAGEGRADE_SECRET_KEY), a random 12-byte IV per value, stored
// as `v1.<iv>.<tag>.<ciphertext>` (base64url).

/** Encrypts a text with a 32-byte key given as 64 hex digits. */
export function encryptSecret(keyHex: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ['v1', iv, tag, data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** Decrypts what `encryptSecret` made with the same key; throws when the key or the text differ. */
export function decryptSecret(keyHex: string, stored: string): string {
  const [v, iv, tag, data] = stored.split('.');
  if (v !== 'v1' || iv === undefined || tag === undefined || data === undefined)
    throw new Error('not an encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
