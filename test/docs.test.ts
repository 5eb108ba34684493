// The generated docs (the check table and the scoring tables of docs/checks.md) match the
// registry and the scoring table; when they do not, the message says how to refresh them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ciDocsState, docsState, regenerate, ROOT } from '../scripts/docs-tables.js';
import { checks } from '../src/analyzer/checks/index.js';

test('docs: the committed generated sections are current (run npm run docs)', () => {
  for (const { file, committed, generated } of docsState()) {
    const marker = file === 'docs/teams.md' ? 'access' : 'checks';
    assert.ok(committed.includes(`<!-- generated:${marker} -->`), `${file} has no generated ${marker} table`);
    assert.ok(
      committed === generated,
      `${file} is stale: its generated sections differ from the code. Run npm run docs and commit the result.`,
    );
  }
});

test('docs: docs/ci.md and docs/ci.schema.json match the ci schema and figures (run npm run docs)', () => {
  for (const { file, committed, generated } of ciDocsState())
    assert.ok(committed === generated, `${file} is stale: run npm run docs and commit the result.`);
  const [md, schema] = ciDocsState();
  assert.match(md!.committed, /\| `assertMatrix\[\]\.matchingUrlPattern` \|/);
  assert.match(md!.committed, /\| `resources\.images` \| count \|/);
  assert.deepEqual(Object.keys((JSON.parse(schema!.committed) as { properties: object }).properties), [
    '$schema',
    'urls',
    'serve',
    'start',
    'crawl',
    'render',
    'runs',
    'preset',
    'assertions',
    'assertMatrix',
    'budgets',
    'upload',
    'report',
  ]);
});

test('docs: the check table has one row per registered check, and generation is deterministic', () => {
  const { generated } = docsState()[0]!;
  for (const c of checks) assert.ok(generated.includes(`| \`${c.id}\` | ${c.priority} |`), c.id);
  assert.equal(regenerate(generated, 'docs/checks.md'), generated);
});

test('docs: a stale section is rewritten, an unknown one is refused', () => {
  const stale = '# x\n\n<!-- generated:scoring -->\n| old | table |\n<!-- /generated:scoring -->\n';
  const fresh = regenerate(stale, 'x.md');
  assert.notEqual(fresh, stale);
  assert.match(fresh, /\| high \| 10 \|/);
  assert.throws(() => regenerate('<!-- generated:nope -->\n<!-- /generated:nope -->', 'x.md'), /unknown/);
});

test('docs: every relative link in README.md and docs/ points to a file of the repository', () => {
  const files = [
    'README.md',
    'BENCHMARKS.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const broken: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!.split('#')[0]!;
      if (target === '' || /^[a-z]+:/i.test(target)) continue;
      const resolved = resolve(dirname(join(ROOT, file)), target);
      if (!resolved.startsWith(ROOT) || !existsSync(resolved)) broken.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(broken, [], 'links that do not resolve inside a plain clone');
});
