// Keeps ids, folders, registry and tests in step: every check file is registered, its id is its
// file name, its folder is its category, it has a test beside it, and ids are unique.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { checks } from './index.js';
import { CATEGORIES, PRIORITIES } from '../types.js';

const dir = fileURLToPath(new URL('.', import.meta.url));

function checkFiles(): { category: string; id: string }[] {
  const out: { category: string; id: string }[] = [];
  for (const category of CATEGORIES) {
    const folder = join(dir, category);
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)) {
      if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push({ category, id: name.slice(0, -3) });
    }
  }
  return out;
}

test('registry: ids are unique', () => {
  const ids = checks.map((c) => c.id);
  assert.deepEqual(
    ids.filter((id, i) => ids.indexOf(id) !== i),
    [],
  );
});

test('registry: every check file is registered, with id = file name and category = folder', () => {
  const registered = new Map(checks.map((c) => [c.id, c]));
  for (const { category, id } of checkFiles()) {
    const c = registered.get(id);
    assert.ok(c, `checks/${category}/${id}.ts is not in checks/index.ts`);
    assert.equal(c.category, category, `${id}: category ${c.category} but folder ${category}`);
  }
  const files = new Set(checkFiles().map((f) => f.id));
  for (const c of checks)
    assert.ok(files.has(c.id), `${c.id} is registered but checks/${c.category}/${c.id}.ts does not exist`);
});

test('registry: every check has a test file beside it', () => {
  for (const c of checks) {
    assert.ok(
      existsSync(join(dir, c.category, `${c.id}.test.ts`)),
      `checks/${c.category}/${c.id}.test.ts is missing`,
    );
  }
});

test('registry: metadata is complete', () => {
  for (const c of checks) {
    assert.match(c.id, /^[a-z][a-z0-9_]*$/, c.id);
    assert.ok(CATEGORIES.includes(c.category), c.id);
    assert.ok(PRIORITIES.includes(c.priority), c.id);
    for (const k of ['title', 'failTitle', 'howToFix', 'failsWhen'] as const)
      assert.ok(c[k].trim().length > 0, `${c.id}.${k}`);
    assert.equal(typeof c.needsContent, 'boolean', c.id);
    for (const [name, spec] of Object.entries(c.thresholds ?? {})) {
      assert.ok(Number.isFinite(spec.default) && spec.description.length > 0, `${c.id}.thresholds.${name}`);
    }
  }
});

test('registry: at least 50 checks are registered', () => {
  assert.ok(checks.length >= 50, `only ${checks.length} checks are registered`);
});
