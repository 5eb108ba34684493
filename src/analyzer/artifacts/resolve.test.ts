import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Parser } from 'htmlparser2';
import { makeResolver } from './resolve.js';

function expected(raw: string, base: URL): string | null {
  const s = raw.trim();
  if (s === '') return null;
  try {
    return new URL(s, base).href;
  } catch {
    return null;
  }
}

const SAMPLES = [
  '#top',
  '#a b',
  '?q=1',
  '?q=a"b',
  '/',
  '/path/to?x=1#f',
  '/a/./b',
  '/a/../b',
  '/%2e%2E/x',
  '//cdn.example.org/x.js',
  '//CDN.example.org',
  'https://Example.COM/a',
  'https://example.com',
  'https://example.com:443/x',
  'http://user@x.org/',
  'https://127.1/',
  'https://x.org/ü',
  'https://x.org/a b',
  "https://x.org/?a='b'",
  'page.html',
  'a/b?c:d',
  'c:d',
  'mailto:x@y.org',
  'javascript:void(0)',
  'tel:+1',
  '  /trim  ',
  '/tab\tbed',
  'http://[::1]/',
  'https://x.org/{x}',
  'https://xn--bcher-kva.example/',
  'https://x.org/a%20b',
  'https://x.org/a|b',
  '.',
  './x',
  '../x',
  'http:foo',
  'https://a_b.org/',
  'https://.x.org/',
  'https://x..org/',
  'data:image/png;base64,AAAA',
];

test('resolve: the fast paths agree with new URL()', () => {
  for (const b of [
    'https://example.com/dir/page.html?q=1#h',
    'http://example.com',
    'https://example.com/dir/',
  ]) {
    const base = new URL(b);
    const r = makeResolver(base);
    for (const raw of SAMPLES) assert.equal(r(raw)?.href ?? null, expected(raw, base), `${raw} against ${b}`);
  }
});

test('resolve: agrees with new URL() on every href and src of the saved corpus pages', (t) => {
  const dir = fileURLToPath(new URL('../../../../shared/corpus/pages/', import.meta.url));
  if (!existsSync(dir)) return t.skip('corpus pages (../shared/corpus/pages) not found');
  const base = new URL('https://www.example.com/section/page.html?x=1');
  let n = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.html'))) {
    const r = makeResolver(base);
    const refs: string[] = [];
    const p = new Parser({
      onattribute(k, v) {
        if (k === 'href' || k === 'src') refs.push(v);
      },
    });
    p.write(readFileSync(dir + name, 'utf8'));
    p.end();
    for (const raw of refs) {
      const got = r(raw);
      assert.equal(got?.href ?? null, expected(raw, base), `${name}: ${raw}`);
      if (got) {
        const u = new URL(got.href);
        assert.equal(got.protocol, u.protocol, raw);
        assert.equal(got.hostname, u.hostname, raw);
      }
      n++;
    }
  }
  assert.ok(n > 10_000);
});
