// BENCHMARKS.md's summary table is generated from its sections' summary blocks
// (scripts/bench-summary.ts): the committed table is current, each block's figures are in its
// section's text, and a stale table, a bad block or a figure the section lacks is caught.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  benchSummaryState,
  regenerateBenchSummary,
  summaryRows,
  unsupportedFigures,
} from '../scripts/bench-summary.js';

const doc = (blocks: string, table = '| old | table |') =>
  `# Benchmarks\n\n## Summary\n\n<!-- generated:bench-summary -->\n${table}\n<!-- /generated:bench-summary -->\n\n` +
  `## The engine (issue 3 §2)\n\nThree runs gave 0.52, 0.55 and 0.58; 1,606 jobs/s.\n\n${blocks}`;
const block = (measured: string, extra = '') =>
  `<!-- summary\nbenchmark: engine\ntarget: ≥ 0.50\nmeasured: ${measured}\nmet: yes\n${extra}-->\n`;

test('BENCHMARKS.md: the summary table is current (run npm run docs)', () => {
  const { committed, generated } = benchSummaryState();
  assert.ok(
    committed === generated,
    "BENCHMARKS.md: the summary table differs from the sections' summary blocks. Run npm run docs and commit the result.",
  );
});

test('BENCHMARKS.md: one row per section block, every figure found in its section', () => {
  const { committed } = benchSummaryState();
  const rows = summaryRows(committed);
  assert.ok(rows.length >= 10, `${rows.length} summary blocks`);
  for (const r of rows) {
    assert.deepEqual(unsupportedFigures(r), [], `${r.benchmark}: figures not in the section "${r.heading}"`);
    assert.ok(committed.includes(`| [${r.benchmark.replace(/\|/g, '\\|')}](#${r.anchor}) |`), r.benchmark);
  }
});

test('bench summary: a stale table is rewritten, linked to its heading; generation is deterministic', () => {
  const fresh = regenerateBenchSummary(doc(block('0.52–0.58 (three runs), 1606/s')));
  assert.match(
    fresh,
    /\| \[engine\]\(#the-engine-issue-3-2\) \| ≥ 0\.50 \| 0\.52–0\.58 \(three runs\), 1606\/s \| yes \|/,
  );
  assert.ok(!fresh.includes('| old | table |'));
  assert.equal(regenerateBenchSummary(fresh), fresh);
});

test('bench summary: a figure its section lacks, a bad block, or no table is refused', () => {
  assert.throws(
    () => regenerateBenchSummary(doc(block('0.52–0.61'))),
    /"0\.61" \(engine\) is not in the text/,
  );
  assert.throws(() => regenerateBenchSummary(doc(block('0.5'))), /"0\.5" \(engine\)/);
  assert.throws(() => regenerateBenchSummary(doc(block('0.52', 'verdict: yes\n'))), /key: value/);
  assert.throws(
    () => regenerateBenchSummary(doc('<!-- summary\nbenchmark: x\ntarget: y\nmet: yes\n-->\n')),
    /without "measured"/,
  );
  assert.throws(() => regenerateBenchSummary('# Benchmarks\n'), /no <!-- generated:bench-summary -->/);
});
