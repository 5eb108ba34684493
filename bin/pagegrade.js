#!/usr/bin/env node
// The `pagegrade` command. CommonJS (bin/package.json), so that Node runs it without starting
// its ES module loader, ~20 ms of every start (BENCHMARKS.md, CLI start). It runs, in order:
//   1. a bundle of dist/bundle/ (scripts/build.mjs): audit.cjs for `pagegrade audit`, which
//      holds that command alone, else cli.cjs, which holds them all; each compiled from the V8
//      code cache the build wrote beside it (<bundle>.v8cache) when that cache fits this Node;
//   2. dist/cli/index.js when the build had no esbuild to bundle with;
//   3. the TypeScript sources through tsx (a runtime dependency) when dist/ is missing or older
//      than src/, so a stale build never runs old code. PAGEGRADE_FROM_SOURCE=1 forces them.
// `npm ci` builds dist/ (the prepare script); `npm run build` and `npm start` refresh it.
'use strict';
const { existsSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { distIsCurrent, ROOT } = require('../scripts/dist-state.cjs');

if (process.env.PAGEGRADE_FROM_SOURCE !== '1' && distIsCurrent()) {
  const audit = process.argv.slice(2).find((a) => !a.startsWith('-')) === 'audit';
  const bundle = join(ROOT, 'dist/bundle', audit ? 'audit.cjs' : 'cli.cjs');
  if (existsSync(bundle)) runBundle(bundle, audit);
  else void import(pathToFileURL(join(ROOT, 'dist/cli/index.js')).href);
} else {
  void import('tsx/esm/api').then(({ register }) => {
    register();
    return import(pathToFileURL(join(ROOT, 'src/cli/index.ts')).href);
  });
}

/**
 * Runs a bundle: a function expression `(exports, require, module, __filename, __dirname)`
 * compiled with vm.Script so that V8 can take its bytecode from the code cache instead of
 * parsing the file (Node 20 has no module compile cache). V8 checks the cache against the
 * source, its own version and its flags, and compiles from source when it does not fit:
 * slower, never wrong. A bundle has no dynamic import() (scripts/build.mjs refuses one), so the
 * script needs no module loader. PAGEGRADE_WRITE_CODE_CACHE=1 writes the cache at exit (the
 * build does, once per bundle, from a real run: all that run compiled).
 */
function runBundle(file, audit) {
  // A one-page audit compiles WebAssembly (undici's HTTP parser) with the baseline compiler
  // only: the optimizing tier would double the peak memory (≈ +40 MB) for code that runs a few
  // milliseconds. Set before compiling: the flags are part of what the code cache must match.
  // The other commands (a worker, a crawl of many pages) keep the optimizing tier.
  if (audit) require('node:v8').setFlagsFromString('--liftoff-only');
  const vm = require('node:vm');
  const cacheFile = `${file}.v8cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // no cache (a build without one): compile from source
  }
  const script = new vm.Script(readFileSync(file, 'utf8'), { filename: file, cachedData });
  if (process.env.PAGEGRADE_WRITE_CODE_CACHE === '1')
    process.once('exit', () => {
      writeFileSync(`${cacheFile}.${process.pid}`, script.createCachedData());
      renameSync(`${cacheFile}.${process.pid}`, cacheFile);
    });
  const module = { exports: {} };
  // this file's own require: the bundle requires only Node's modules and packages, which resolve
  // from bin/ as from dist/bundle/ (module.createRequire would start part of the ES module loader)
  script.runInThisContext().call(undefined, module.exports, require, module, file, dirname(file));
}
