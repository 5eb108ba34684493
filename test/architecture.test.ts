// The house's shape, checked: the layer map of scripts/layers.cjs holds (no arrow back up, no
// arrow between rooms of one floor, no circle, no test code in src, service features reached
// through their faces — .dependency-cruiser.cjs), and no source file outgrows 500 lines
// (generated code and migrations aside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { layersState } from '../scripts/docs-tables.js';

const root = new URL('..', import.meta.url).pathname;
const MAX_LINES = 500;
/** generated or append-only files the line limit does not apply to */
const EXEMPT = [/^src\/client\/schema\.ts$/, /^src\/store\/migrations\//];

test('the import graph follows the layer map: no climb, no circle, features through their faces', () => {
  const bin = join(root, 'node_modules/.bin/depcruise');
  const r = spawnSync(bin, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, `dependency rules broken:\n${r.stdout}${r.stderr}`);
  assert.match(r.stdout, /no dependency violations found/);
});

test('every room of src/ is on the layer map', () => {
  const { LAYERS } = createRequire(import.meta.url)('../scripts/layers.cjs') as {
    LAYERS: { paths: string[] }[];
  };
  const paths = LAYERS.flatMap((l) => l.paths);
  for (const name of readdirSync(join(root, 'src'))) {
    const rel = statSync(join(root, 'src', name)).isDirectory() ? `src/${name}/` : `src/${name}`;
    if (rel.endsWith('.d.ts')) continue;
    assert.ok(paths.includes(rel), `${rel} is on no floor of scripts/layers.cjs`);
  }
});

test(`no source file is over ${MAX_LINES} lines`, () => {
  const long: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(ts|js|mjs|cjs)$/.test(name) && !name.endsWith('.test.ts')) {
        const rel = relative(root, full);
        if (EXEMPT.some((e) => e.test(rel))) continue;
        const lines = readFileSync(full, 'utf8').split('\n').length - 1;
        if (lines > MAX_LINES) long.push(`${rel}: ${lines}`);
      }
    }
  };
  walk(join(root, 'src'));
  assert.deepEqual(long, [], 'split these files by concern');
});

test('docs/architecture.md shows the layer map as scripts/layers.cjs has it (run npm run docs)', () => {
  const { committed, generated } = layersState();
  assert.ok(
    committed.includes('<!-- generated:layers -->'),
    'docs/architecture.md has no generated layer map',
  );
  assert.equal(committed, generated, 'docs/architecture.md is stale: run npm run docs and commit the result');
});
