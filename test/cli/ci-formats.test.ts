// `pagegrade ci`'s files for CI systems, each validated against its published schema (vendored
// in test/fixtures/schemas, each file saying where it comes from): JUnit XML with xmllint and
// junit-10.xsd, SARIF 2.1.0 and GitLab Code Quality with Ajv; the Markdown summary, also
// appended to $GITHUB_STEP_SUMMARY. One run with failing errors, warnings, passing and
// unmeasured assertions, so that every branch of each format is written.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { runCli } from '../helpers/cli.js';

const schemas = new URL('../fixtures/schemas/', import.meta.url);
const schema = (name: string) => JSON.parse(readFileSync(new URL(name, schemas), 'utf8')) as object;

let dir: string;
let out: { code: number | null; stdout: string; stderr: string };
const file = (name: string) => join(dir, name);

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pagegrade-ci-formats-'));
  mkdirSync(file('site/legacy'), { recursive: true });
  // a page with a failing check (no alt text), characters XML and Markdown must escape
  writeFileSync(
    file('site/index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tests &amp; "quotes" | pipes</title></head><body><h1>Tests</h1><img src="a.png"></body></html>',
  );
  writeFileSync(file('site/legacy/old.html'), '<html><body><p>old</p></body></html>');
  writeFileSync(
    file('pagegrade.config.json'),
    JSON.stringify({
      serve: 'site',
      urls: ['/', '/legacy/old.html'],
      assertions: {
        image_keywords: 'error',
        title: 'error',
        html_size: ['warn', { max: 50 }],
        lcp: ['error', { max: 2500 }],
        'categories.security': ['warn', { min: 0 }],
      },
      assertMatrix: [{ matchingUrlPattern: '/legacy/**', assertions: { title: 'warn' } }],
    }),
  );
  writeFileSync(file('summary.md'), '# Earlier step\n\n');
  out = await runCli(
    [
      'ci',
      '--config',
      file('pagegrade.config.json'),
      '--junit',
      file('junit.xml'),
      '--sarif',
      file('results.sarif'),
      '--codequality',
      file('codequality.json'),
      '--markdown',
      file('summary-file.md'),
    ],
    { CI: 'true', GITHUB_STEP_SUMMARY: file('summary.md') },
  );
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('the run fails on its error-level assertion (exit 1)', () => {
  assert.equal(out.code, 1, out.stderr + out.stdout);
});

test('JUnit XML validates against junit-10.xsd: a suite per URL, a case per assertion, a failure per failing error', () => {
  const lint = spawnSync(
    'xmllint',
    ['--noout', '--schema', new URL('junit-10.xsd', schemas).pathname, file('junit.xml')],
    {
      encoding: 'utf8',
    },
  );
  if (lint.error) assert.fail(`xmllint is needed (apt-get install libxml2-utils): ${lint.error.message}`);
  assert.equal(lint.status, 0, lint.stderr);
  const xml = readFileSync(file('junit.xml'), 'utf8');
  const suites = [...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(suites.length, 2);
  assert.match(suites[1]!, /\/legacy\/old\.html$/);
  // five assertions on each URL: a testcase each
  assert.equal([...xml.matchAll(/<testcase /g)].length, 10);
  // one failure: image_keywords on / (on /legacy the missing title is a warning: system-out)
  const failures = [...xml.matchAll(/<testcase name="([a-z_.]+)"[^>]*>\s*<failure/g)].map((m) => m[1]);
  assert.deepEqual(failures, ['image_keywords']);
  assert.match(xml, /<testcase name="title"[^>]*>\s*<system-out>warning: /);
  // lcp is measured only in rendered runs: skipped, not failed
  assert.match(xml, /<testcase name="lcp"[^>]*>\s*<skipped message="not measured/);
  assert.match(xml, /<testsuites name="pagegrade ci" tests="10" failures="1"/);
});

test('SARIF 2.1.0 validates against the SARIF schema; a result per failing assertion', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(schema('sarif-2.1.0.schema.json'));
  const log = JSON.parse(readFileSync(file('results.sarif'), 'utf8')) as {
    runs: {
      tool: { driver: { rules: { id: string }[] } };
      results: { ruleId: string; level: string; ruleIndex: number }[];
    }[];
  };
  assert.ok(validate(log), ajv.errorsText(validate.errors));
  const [run] = log.runs;
  const levels = run!.results.map((r) => `${r.ruleId}:${r.level}`).sort();
  assert.deepEqual(levels, ['html_size:warning', 'image_keywords:error', 'title:warning']);
  for (const r of run!.results) assert.equal(run!.tool.driver.rules[r.ruleIndex]!.id, r.ruleId);
  // a wrong log is refused: the schema is not a rubber stamp
  assert.equal(validate({ version: '2.0.0', runs: [] }), false);
});

test('GitLab Code Quality validates against its schema; severities follow the levels', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(schema('gitlab-codequality.schema.json'));
  const issues = JSON.parse(readFileSync(file('codequality.json'), 'utf8')) as {
    check_name: string;
    severity: string;
    fingerprint: string;
    location: { path: string };
  }[];
  assert.ok(validate(issues), ajv.errorsText(validate.errors));
  assert.deepEqual(issues.map((i) => `${i.check_name}:${i.severity}`).sort(), [
    'pagegrade/html_size:minor',
    'pagegrade/image_keywords:major',
    'pagegrade/title:minor',
  ]);
  assert.equal(new Set(issues.map((i) => i.fingerprint)).size, issues.length, 'fingerprints are unique');
  // the configuration file is the location (the run's working folder is not its folder: its full path)
  for (const i of issues) assert.equal(i.location.path, file('pagegrade.config.json'));
  assert.equal(
    validate([
      {
        description: 'x',
        check_name: 'y',
        fingerprint: 'z',
        severity: 'fatal',
        location: { path: 'a', lines: { begin: 1 } },
      },
    ]),
    false,
  );
});

test('the Markdown summary is written and appended to $GITHUB_STEP_SUMMARY', () => {
  const md = readFileSync(file('summary-file.md'), 'utf8');
  assert.match(md, /^## Pagegrade CI\n/);
  assert.match(md, /\*\*1 error-level assertion\(s\) failed\*\*/);
  assert.match(md, /\| error \| http:\/\/127\.0\.0\.1:\d+\/ \| `image_keywords` \|/);
  // each table row has the header's six cells (pipes in the page's text are escaped)
  for (const row of md.split('\n').filter((l) => l.startsWith('| error') || l.startsWith('| warn')))
    assert.equal(row.split(/(?<!\\)\|/).length - 2, 6, row);
  const summary = readFileSync(file('summary.md'), 'utf8');
  assert.equal(summary, `# Earlier step\n\n${md}`);
});
