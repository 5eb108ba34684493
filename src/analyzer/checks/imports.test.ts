// A check stands alone: it reads the artifacts and the shared helpers (checks/types.ts,
// src/analyzer/url.ts…), never another check. What two checks share belongs in the artifacts
// (gathered once) or in a helper module, not in one of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative, resolve } from 'node:path';
import { CATEGORIES } from '../types.js';

const dir = fileURLToPath(new URL('.', import.meta.url));
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** every relative module a file imports or re-exports, resolved to a path under checks/ */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const spec = m[1] ?? m[2]!;
    if (spec.startsWith('.')) out.push(relative(dir, resolve(dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  return out;
}

const isCheckModule = (path: string) =>
  CATEGORIES.some((c) => path.startsWith(`${c}/`)) && !path.endsWith('.test.ts');

test('no check imports another check', () => {
  const offences: string[] = [];
  let seen = 0;
  for (const category of CATEGORIES) {
    // a category whose checks are not files here (accessibility: axe-core's rules) has no folder
    if (!existsSync(join(dir, category))) continue;
    for (const name of readdirSync(join(dir, category))) {
      if (!name.endsWith('.ts')) continue;
      const self = `${category}/${name.replace(/\.test\.ts$/, '.ts')}`;
      seen++;
      for (const target of importsOf(join(dir, category, name))) {
        if (isCheckModule(target) && target !== self) offences.push(`${category}/${name} imports ${target}`);
      }
    }
  }
  assert.ok(seen > 50, `found only ${seen} check files`);
  assert.deepEqual(offences, []);
});

test('the import scan sees a check importing another', () => {
  // the rule's own test: the pattern finds both import forms it must catch
  const sample = "import { x } from './canonical.js';\nexport { y } from '../seo/title.js';";
  const found = [...sample.matchAll(IMPORT)].map((m) => m[1]);
  assert.deepEqual(found, ['./canonical.js', '../seo/title.js']);
});
