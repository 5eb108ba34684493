#!/usr/bin/env node
// Runs the *.test.ts files under src/ and test/ with node:test through tsx (docs/testing.md).
// Node 20's test runner has no glob support, so the files are listed here.
//
// Usage: node scripts/run-tests.mjs [--list] [filter ...]
//   filter   a test file runs when its path contains one of the filters (test/api/list,
//            splice, src/analyzer). A filter that names a room under src/ without the src/ in
//            front (services/batches: src/services is a folder) also runs the test files under
//            test/ named after the room's last folder (batches.test.ts, batches-browser.test.ts,
//            batches.service.test.ts, in any folder of test/).
//   --list   prints the files that would run, in the order they start, and runs nothing.
//
// The files start longest first (node --test starts them in the order given, TEST_CONCURRENCY
// at a time): by each file's time in the last full run (test/.file-times.json), so that a long
// file does not start last and run on alone at the end. A file that has no time there (a new
// one) starts before all of them; files of equal time go by their path.
//
// At the end it prints the run's figures: the wall time, the test counts and the 15 slowest
// files (scripts/test-times-reporter.mjs collects them beside the spec reporter). A full run
// (no filter) that passes writes them into docs/testing.md between the figures markers, and
// every file's time into test/.file-times.json (the order of the next runs).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const list = args.includes('--list');
const filters = args.filter((a) => a !== '--list');
const unknown = filters.filter((a) => a.startsWith('--'));
if (unknown.length) {
  console.error(`unknown option ${unknown.join(', ')} (usage: run-tests.mjs [--list] [filter ...])`);
  process.exit(2);
}

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (name.endsWith('.test.ts')) out.push(relative(root, full).split('\\').join('/'));
  }
  return out;
}

/** Whether `file` (a path from the root, with /) is selected by `filter` (see the usage above). */
function selects(filter, file) {
  if (file.includes(filter)) return true;
  const room = filter.replace(/\/+$/, '');
  if (!room.includes('/') || room.startsWith('src/') || room.startsWith('test/')) return false;
  const parent = join(root, 'src', dirname(room));
  if (!existsSync(parent) || !statSync(parent).isDirectory()) return false;
  const feature = basename(room);
  return (
    file.startsWith('test/') &&
    new RegExp(`^${feature.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([.-])`).test(basename(file))
  );
}

/** test/.file-times.json: each test file's time (ms) in the last full run that passed */
const timesPath = join(root, 'test/.file-times.json');
function lastTimes() {
  try {
    const parsed = JSON.parse(readFileSync(timesPath, 'utf8'));
    return new Map(Object.entries(parsed.files ?? {}).filter(([, ms]) => typeof ms === 'number'));
  } catch {
    return new Map(); // none yet (or unreadable): every file is new, the order alphabetical
  }
}

/** Longest first by the last full run; a file it does not know first of all (it may be long). */
function longestFirst(paths) {
  const known = lastTimes();
  const time = (f) => known.get(f) ?? Infinity;
  return [...paths].sort((a, b) => time(b) - time(a) || (a < b ? -1 : a > b ? 1 : 0));
}

let files = [...walk(join(root, 'src'), []), ...walk(join(root, 'test'), [])].sort();
if (filters.length) files = files.filter((f) => filters.some((s) => selects(s, f)));
files = longestFirst(files);
if (files.length === 0) {
  console.error(filters.length ? `no test files match ${filters.join(', ')}` : 'no test files found');
  process.exit(1);
}
if (list) {
  console.log(files.join('\n'));
  process.exit(0);
}

const concurrency = process.env.TEST_CONCURRENCY ?? '3';
const tmp = mkdtempSync(join(tmpdir(), 'pagegrade-tests-'));
const timesFile = join(tmp, 'times.json');
const started = performance.now();
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
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/test-times-reporter.mjs',
    `--test-reporter-destination=${timesFile}`,
    ...files,
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
const wallMs = performance.now() - started;
const status = result.status ?? 1;

let times = null;
try {
  times = JSON.parse(readFileSync(timesFile, 'utf8'));
} catch {
  // the runner did not get as far as the reporter's end (killed): no figures
}
rmSync(tmp, { recursive: true, force: true });

const seconds = (ms) =>
  ms >= 60_000
    ? `${Math.floor(Math.round(ms / 1000) / 60)} min ${Math.round(ms / 1000) % 60} s`
    : `${(ms / 1000).toFixed(1)} s`;
const n = (x) => x.toLocaleString('en-US');
if (times) {
  const { counts } = times;
  const ran = new Set(files);
  const allFiles = times.files
    .map((f) => ({ file: relative(root, f.file).split('\\').join('/'), ms: f.ms }))
    // events name the file that declared the test: a suite declared by a helper names the helper
    .filter((f) => ran.has(f.file))
    .sort((a, b) => b.ms - a.ms);
  const slowest = allFiles.slice(0, 15);
  // TEST_TIMES_OUT=path keeps every file's time (JSON), to find what to make faster
  if (process.env.TEST_TIMES_OUT)
    writeFileSync(process.env.TEST_TIMES_OUT, JSON.stringify(allFiles, null, 1));
  const tests = counts.passed + counts.failed + counts.skipped + counts.todo;
  const summary =
    `${n(files.length)} files, ${n(tests)} tests (${n(counts.passed)} passed, ${n(counts.failed)} failed, ` +
    `${n(counts.skipped)} skipped${counts.todo ? `, ${n(counts.todo)} todo` : ''}) ` +
    `in ${seconds(wallMs)} wall time, ${concurrency} files at a time`;
  console.log(`\n# test suite: ${summary}`);
  console.log('# slowest files:');
  for (const f of slowest) console.log(`#   ${seconds(f.ms).padStart(10)}  ${f.file}`);

  if (filters.length === 0 && status === 0) {
    const date = new Date().toISOString().slice(0, 10);
    const doc = join(root, 'docs/testing.md');
    const start = '<!-- figures:start -->';
    const end = '<!-- figures:end -->';
    const text = existsSync(doc) ? readFileSync(doc, 'utf8') : '';
    const a = text.indexOf(start);
    const b = text.indexOf(end);
    if (a === -1 || b < a) {
      console.log(`# docs/testing.md has no ${start} … ${end} block: figures not written`);
    } else {
      const block = [
        start,
        `Last full run: ${date}, Node ${process.version}, ${availableParallelism()} cores: ${summary}.`,
        '',
        `The ${slowest.length} slowest files (each file's own time, from its start to its end):`,
        '',
        '| File | Time |',
        '| --- | ---: |',
        ...slowest.map((f) => `| \`${f.file}\` | ${seconds(f.ms)} |`),
        end,
      ].join('\n');
      writeFileSync(doc, text.slice(0, a) + block + text.slice(b + end.length));
      console.log('# figures written to docs/testing.md');
    }
    // every file's time, slowest first (100 ms steps: small diffs), for the next runs' order
    const perFile = Object.fromEntries(allFiles.map((f) => [f.file, Math.round(f.ms / 100) * 100]));
    const note =
      "Written by scripts/run-tests.mjs after a full run that passed: each test file's time (ms), " +
      'the order the next runs start the files in (longest first). Commit it with docs/testing.md.';
    writeFileSync(timesPath, `${JSON.stringify({ note, run: date, files: perFile }, null, 2)}\n`);
    console.log("# every file's time written to test/.file-times.json");
  }
}
process.exit(status);
