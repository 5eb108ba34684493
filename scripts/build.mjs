#!/usr/bin/env node
// Builds dist/ (tsc -p tsconfig.build.json) and stamps it (dist/.built), so that bin/pagegrade.js
// and `npm start` can tell a current build from a stale one without compiling.
//   node scripts/build.mjs             build (npm run build)
//   node scripts/build.mjs --if-stale  build only when a file under src/ is newer than the stamp
//                                      (npm start's prestart, and prepare: `npm ci` builds dist/)
// Without TypeScript installed (`npm ci --omit=dev`) --if-stale says so and leaves dist/ as it
// is: bin/pagegrade.js then runs the sources through tsx, and `npm start` needs a built dist/.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { distIsCurrent, ROOT, STAMP } from './dist-state.cjs';

const ifStale = process.argv.includes('--if-stale');
if (ifStale && distIsCurrent()) process.exit(0);

let tsc;
try {
  tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  const msg = 'pagegrade: TypeScript is not installed (npm ci --omit=dev?), so dist/ was not built';
  if (ifStale && existsSync(join(ROOT, 'dist/server.js'))) {
    console.error(`${msg}; the existing dist/ is older than src/.`);
    process.exit(0);
  }
  console.error(`${msg}; run npm ci (with dev dependencies) and npm run build.`);
  process.exit(ifStale ? 0 : 1);
}
if (ifStale) console.error('pagegrade: src/ is newer than dist/: building (npm run build)…');
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
  cwd: ROOT,
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);
const bundled = await bundleCli();
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
if (bundled) await writeCodeCaches();

/**
 * The CLI as CommonJS bundles (esbuild), run by bin/pagegrade.js without Node's ES module loader
 * and from a V8 code cache each (writeCodeCaches): dist/bundle/cli.cjs has every command, and
 * dist/bundle/audit.cjs (src/cli/audit-main.ts) has `pagegrade audit` alone — half the code to
 * read and compile for the command a CI pipeline runs per page (BENCHMARKS.md, CLI start).
 * Each file is a function expression `(exports, require, module, __filename, __dirname)` in
 * strict mode, as ES modules are; each command's modules stay wrapped and run when the command
 * first imports them. Minified (a file is read at every start; audit.cjs shortens names too,
 * cli.cjs keeps them for the stack traces of long-running commands; source maps beside them)
 * and ASCII-only (a one-byte string for V8). Packages with native code,
 * worker-thread transports, browser assets or their own files to find stay outside (loaded from
 * node_modules as usual). Without esbuild nothing is bundled and bin/pagegrade.js runs dist/cli/.
 */
async function bundleCli() {
  const outdir = join(ROOT, 'dist/bundle');
  rmSync(outdir, { recursive: true, force: true });
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    console.error('pagegrade: esbuild is not installed, so the CLI is not bundled (dist/cli/ is used).');
    return false;
  }
  const common = {
    outdir,
    outExtension: { '.js': '.cjs' },
    metafile: true,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    sourcemap: 'linked',
    legalComments: 'none',
    charset: 'ascii',
    external: [
      'better-sqlite3',
      'pg',
      'pg-*',
      'bullmq',
      'ioredis',
      'playwright-core',
      'tsx',
      'pino',
      'pino-pretty',
      'axe-core',
      'fastify',
      '@fastify/*',
      'prom-client',
    ],
    plugins: [deferUnused()],
    // import.meta.url of a bundled module is the bundle's URL, as it was in the ES module bundle
    define: { 'import.meta.url': '__pgImportMetaUrl' },
    banner: {
      js: "(function (exports, require, module, __filename, __dirname) {'use strict';var __pgImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    footer: { js: '\n})' },
  };
  const builds = await Promise.all([
    // the one-page audit: fully minified (names shortened too), for the least to read
    esbuild.build({ ...common, entryPoints: { audit: join(ROOT, 'dist/cli/audit-main.js') }, minify: true }),
    // every command, among them the long-running worker and crawl: names kept, so that a stack
    // trace in their logs names the functions (Node maps no source map for a vm.Script)
    esbuild.build({
      ...common,
      entryPoints: { cli: join(ROOT, 'dist/cli/index.js') },
      minifyWhitespace: true,
      minifySyntax: true,
    }),
  ]);
  const outputs = Object.assign({}, ...builds.map((b) => b.metafile.outputs));
  for (const [name, output] of Object.entries(outputs)) {
    if (!name.endsWith('.cjs')) continue;
    // a dynamic import() left in the bundle (esbuild keeps those of external packages) would
    // fail at run time: a script compiled by vm.Script with a code cache has no module loader
    const left = output.imports.filter((i) => i.kind === 'dynamic-import' && i.external).map((i) => i.path);
    if (left.length)
      throw new Error(
        `${name} keeps import() of ${left.join(', ')}: require() them instead (a CommonJS package).`,
      );
    // eslint-disable-next-line no-control-regex
    const wide = readFileSync(join(ROOT, name), 'utf8').match(/[^\x00-\x7f]/);
    if (wide)
      console.error(
        `pagegrade: ${name} has a non-ASCII character (U+${wide[0].codePointAt(0).toString(16)} at ${wide.index}), likely in a regular expression: it still runs, as a two-byte string.`,
      );
  }
  return true;
}

/**
 * Two modules that packages load at start and a one-page audit rarely or never uses, deferred
 * in the bundle to their first use (~5 ms of every `pagegrade audit`: they load Node's http2,
 * TLS and crypto): undici's HTTP/2 client (used only when a TLS server agrees to HTTP/2) and
 * commander's child_process (for executable subcommands, which Pagegrade has none of). Each
 * stand-in hands every use to the real module, which it loads then: nothing behaves otherwise.
 */
function deferUnused() {
  return {
    name: 'defer-unused',
    setup(build) {
      build.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
        /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/.test(args.importer)
          ? { path: join(args.resolveDir, 'client-h2.js'), namespace: 'defer-undici-h2' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'defer-undici-h2' }, (args) => ({
        contents: `let real; module.exports = function connectH2(...args) { real ??= require(${JSON.stringify(args.path)}); return real.apply(this, args); };`,
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
      build.onResolve({ filter: /^node:child_process$/ }, (args) =>
        /[\\/]commander[\\/]/.test(args.importer)
          ? { path: 'child_process', namespace: 'defer-builtin' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'defer-builtin' }, (args) => ({
        contents: `module.exports = new Proxy({}, { get: (_, key) => process.getBuiltinModule('node:${args.path}')[key] });`,
        loader: 'js',
      }));
    },
  };
}

/**
 * Writes each bundle's code cache (`<bundle>.v8cache`): V8's compiled code, taken at the end of
 * a real run, so that it holds every function that run compiled — for audit.cjs a
 * `pagegrade audit --json` of a page served on 127.0.0.1 (test/fixtures/pages/good, with a
 * robots.txt, a sitemap and an icon), for cli.cjs `pagegrade --help` (what every command
 * shares: the entry point, commander). If a run fails the build goes on without that cache:
 * the command then compiles from source.
 */
async function writeCodeCaches() {
  const fixture = join(ROOT, 'test/fixtures/pages/good');
  const files = {
    '/': [
      'text/html; charset=utf-8',
      existsSync(fixture)
        ? readFileSync(join(fixture, 'page.html'))
        : '<!doctype html><title>Pagegrade</title><h1>Pagegrade</h1>',
    ],
    '/robots.txt': ['text/plain', 'User-agent: *\nDisallow: /private/\nSitemap: /sitemap.xml\n'],
    '/sitemap.xml': [
      'application/xml',
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/</loc></url></urlset>',
    ],
    '/favicon.ico': ['image/x-icon', Buffer.alloc(64)],
  };
  const server = createServer((req, res) => {
    const [type, body] = files[req.url] ?? [
      'text/html; charset=utf-8',
      '<!doctype html><title>Not found</title>',
    ];
    res.writeHead(files[req.url] ? 200 : 404, { 'content-type': type, 'cache-control': 'max-age=60' });
    res.end(body);
  });
  const run = (args) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'bin/pagegrade.js'), ...args], {
        env: {
          ...process.env,
          PAGEGRADE_WRITE_CODE_CACHE: '1',
          PAGEGRADE_ALLOW_PRIVATE_HOSTS: '1',
          PAGEGRADE_FROM_SOURCE: '',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('error', () => resolve(-1));
      child.on('close', resolve);
    });
  try {
    await new Promise((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
    const runs = [
      ['audit.cjs', ['audit', `http://127.0.0.1:${server.address().port}/`, '--json']],
      ['cli.cjs', ['--help']],
    ];
    for (const [bundle, args] of runs) {
      const code = await run(args);
      if (!existsSync(join(ROOT, 'dist/bundle', `${bundle}.v8cache`)))
        console.error(
          `pagegrade: no code cache for ${bundle} (\`pagegrade ${args[0]}\` exited ${code}); it compiles from source.`,
        );
    }
  } catch (err) {
    console.error(`pagegrade: no code cache for the CLI (${err.message}); it compiles from source.`);
  } finally {
    server.close();
  }
}
