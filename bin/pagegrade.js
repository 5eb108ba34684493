#!/usr/bin/env node
// The `pagegrade` command. Runs the compiled CLI when `npm run build` has produced it,
// otherwise runs the TypeScript sources through tsx (a runtime dependency), so that
// `npx pagegrade …` works straight after `npm ci`.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));
if (existsSync(compiled) && process.env.PAGEGRADE_FROM_SOURCE !== '1') {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/index.ts', import.meta.url).href);
}
