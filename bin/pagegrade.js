#!/usr/bin/env node
// The `pagegrade` command. Runs the compiled CLI (dist/bundle/, else dist/cli/) when it is a current build of src/
// (`npm ci` builds it through the prepare script; `npm run build` and `npm start` refresh it);
// otherwise runs the TypeScript sources through tsx (a runtime dependency), so a stale or
// missing build never runs old code. PAGEGRADE_FROM_SOURCE=1 forces the sources.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distIsCurrent, ROOT } from '../scripts/dist-state.mjs';

if (process.env.PAGEGRADE_FROM_SOURCE !== '1' && distIsCurrent()) {
  // the bundle (scripts/build.mjs) when the build made one: fewer files, a faster start
  const bundle = join(ROOT, 'dist/bundle/index.js');
  await import(pathToFileURL(existsSync(bundle) ? bundle : join(ROOT, 'dist/cli/index.js')).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(ROOT, 'src/cli/index.ts')).href);
}
