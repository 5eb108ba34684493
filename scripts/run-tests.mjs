#!/usr/bin/env node
// Runs every *.test.ts under src/ and test/ with node:test through tsx.
// Node 20's test runner has no glob support, so the files are listed here.
// Usage: node scripts/run-tests.mjs [path-substring ...]   (filters the files)
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, full));
  }
  return out;
}

let files = [...walk(join(root, 'src'), []), ...walk(join(root, 'test'), [])].sort();
if (filters.length) files = files.filter((f) => filters.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? '3';
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--import',
    './test/helpers/preload.mjs',
    '--test',
    `--test-concurrency=${concurrency}`,
    // a backstop: a test that hangs fails after 10 minutes instead of holding CI for 90
    '--test-timeout=600000',
    '--test-reporter=spec',
    ...files,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
process.exit(result.status ?? 1);
