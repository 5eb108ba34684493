// The Node versions Pagegrade runs on (issue 13 item 17): package.json says >=20.19. Two
// dependencies of Fastify's packages declare Node >= 22 (npm ci warns EBADENGINE): cookie@2
// (required by light-my-request, fastify's inject; @fastify/cookie imports it) and
// content-disposition@3 (required by @fastify/static, under @fastify/swagger-ui). Both are ES modules loaded with require(), which
// Node supports unflagged from 20.19 — the real minimum. This loads them exactly that way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};
const require = createRequire(import.meta.url);

function atLeast(version: string, minimum: string): boolean {
  const [a, b] = [version, minimum].map((v) => v.replace(/^v/, '').split('.').map(Number));
  for (let i = 0; i < 3; i++) if ((a![i] ?? 0) !== (b![i] ?? 0)) return (a![i] ?? 0) > (b![i] ?? 0);
  return true;
}

test('package.json states the real minimum, and this Node meets it', () => {
  const minimum = /^>=(\d+\.\d+(?:\.\d+)?)$/.exec(pkg.engines.node)?.[1];
  assert.ok(minimum, `engines.node is ">=X.Y": ${pkg.engines.node}`);
  assert.ok(atLeast(minimum, '20.19'), 'require() of ES modules needs Node 20.19');
  assert.ok(atLeast(process.version, minimum), `${process.version} < ${minimum}`);
});

test('the ESM-only dependencies that declare Node >= 22 load through require() as their dependents do', () => {
  const fromLightMyRequest = createRequire(require.resolve('light-my-request'));
  assert.equal(typeof fromLightMyRequest('cookie').stringifySetCookie, 'function');
  const fromStatic = createRequire(
    require.resolve('@fastify/static', { paths: [require.resolve('@fastify/swagger-ui')] }),
  );
  assert.equal(typeof fromStatic('content-disposition').create, 'function');
});
