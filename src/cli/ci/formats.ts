// `pagegrade ci`'s files for CI systems, each checked in test/cli/ci-formats.test.ts against
// its published schema: JUnit XML (--junit: a testsuite per URL, a testcase per URL ×
// assertion, a <failure> for each failing error-level one), GitLab Code Quality (--codequality)
// and SARIF 2.1.0 (--sarif, GitHub code scanning). Code Quality and SARIF list the failing
// assertions (errors and warnings); their location is the configuration file, line 1 (both
// formats want a file of the repository), and the page's URL is in the message.
import { createHash } from 'node:crypto';
import { PACKAGE } from '../../package-info.js';
import type { CiResults, Outcome } from './assertions.js';
import { groupsOf } from './reporters.js';

// characters XML 1.0 cannot hold, even escaped
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
function xml(s: string): string {
  return s
    .replace(NOT_XML, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const said = (o: Outcome) =>
  `${o.title}: ${o.message}${o.actual === null ? '' : ` (actual ${o.actual}, expected ${o.expected})`}`;

/** JUnit XML: the Jenkins/Surefire shape (junit-10.xsd) every CI reads. */
export function junitXml(r: CiResults): string {
  const groups = groupsOf(r);
  const failures = (os: Outcome[]) => os.filter((o) => o.passed === false && o.level === 'error').length;
  const skipped = (os: Outcome[]) => os.filter((o) => o.passed === null).length;
  const total = groups.reduce((n, g) => n + g.outcomes.length, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pagegrade ci" tests="${total}" failures="${groups.reduce((n, g) => n + failures(g.outcomes), 0)}" errors="0">`,
  ];
  groups.forEach((g, i) => {
    out.push(
      `  <testsuite name="${xml(g.name)}" id="${i}" tests="${g.outcomes.length}" failures="${failures(g.outcomes)}" errors="0" skipped="${skipped(g.outcomes)}">`,
    );
    for (const o of g.outcomes) {
      const open = `    <testcase name="${xml(o.id)}" classname="${xml(g.url)}"`;
      if (o.passed === true) {
        out.push(`${open}/>`);
        continue;
      }
      out.push(`${open}>`);
      if (o.passed === null) out.push(`      <skipped message="${xml(o.message)}"/>`);
      else if (o.level === 'error')
        out.push(
          `      <failure type="${xml(o.kind)}" message="${xml(said(o))}">${xml([said(o), o.help ? `Fix: ${o.help}` : ''].filter(Boolean).join('\n'))}</failure>`,
        );
      else out.push(`      <system-out>${xml(`warning: ${said(o)}`)}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  });
  out.push('</testsuites>', '');
  return out.join('\n');
}

const fingerprint = (url: string, id: string) => createHash('sha256').update(`${url}\n${id}`).digest('hex');

/** The failing assertions, with the URL each is about. */
function failing(r: CiResults): { url: string; o: Outcome }[] {
  return groupsOf(r).flatMap((g) =>
    g.outcomes.filter((o) => o.passed === false).map((o) => ({ url: g.url, o })),
  );
}

interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: 'info' | 'minor' | 'major' | 'critical' | 'blocker';
  location: { path: string; lines: { begin: number } };
}

/** GitLab Code Quality: an issue per failing assertion (error: major, warn: minor). */
export function codeQuality(r: CiResults): CodeQualityIssue[] {
  return failing(r).map(({ url, o }) => ({
    description: `${url}: ${said(o)}`,
    check_name: `pagegrade/${o.id}`,
    fingerprint: fingerprint(url, o.id),
    severity: o.level === 'error' ? 'major' : 'minor',
    location: { path: r.config, lines: { begin: 1 } },
  }));
}

/** SARIF 2.1.0: one run, a rule per assertion id, a result per failing assertion. */
export function sarifLog(r: CiResults): Record<string, unknown> {
  const found = failing(r);
  const ids = [...new Set(found.map(({ o }) => o.id))];
  const rules = ids.map((id) => {
    const o = found.find((f) => f.o.id === id)!.o;
    return {
      id,
      name: id.replace(/[^A-Za-z0-9]+(.)?/g, (_m, ch: string | undefined) => (ch ?? '').toUpperCase()),
      shortDescription: { text: o.kind === 'check' ? `Pagegrade check ${id}` : `Pagegrade ${o.kind} ${id}` },
      ...(o.help ? { help: { text: o.help } } : {}),
      properties: { kind: o.kind },
    };
  });
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'Pagegrade', version: PACKAGE.version, rules } },
        results: found.map(({ url, o }) => ({
          ruleId: o.id,
          ruleIndex: ids.indexOf(o.id),
          level: o.level === 'error' ? 'error' : 'warning',
          message: { text: `${url}: ${said(o)}` },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: r.config }, region: { startLine: 1 } },
              logicalLocations: [{ fullyQualifiedName: url, kind: 'resource' }],
            },
          ],
          partialFingerprints: { 'pagegrade/v1': fingerprint(url, o.id) },
          properties: { url, actual: o.actual, expected: o.expected },
        })),
      },
    ],
  };
}
