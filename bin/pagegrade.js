#!/usr/bin/env node
// The `pagegrade` command. Runs the compiled CLI when `npm run build` (or `npm start`) has
// produced it and it is newer than every source file; otherwise runs the TypeScript sources
// through tsx (a runtime dependency), so `npx pagegrade …` works straight after `npm ci`.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const compiled = join(root, 'dist/cli/index.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    const t = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

const useCompiled =
  process.env.PAGEGRADE_FROM_SOURCE !== '1' &&
  existsSync(compiled) &&
  (!existsSync(join(root, 'src')) || statSync(compiled).mtimeMs >= newestMtime(join(root, 'src')));

if (useCompiled) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src/cli/index.ts')).href);
}
