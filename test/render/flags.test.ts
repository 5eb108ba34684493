// Chromium's command line as the renderer launches it (src/render/browser.ts, CHROMIUM_ARGS):
// Chromium keeps only the last --disable-features switch, and playwright-core passes its own
// list before ours, so ours must name every feature playwright-core disables (else those are
// switched back on: the browser's network time query and optimization hints went to the sink).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromiumProcesses, type Renderer } from '../../src/render/browser.js';
import { chromiumSkip } from '../helpers/chromium.js';
import { testRenderer } from '../helpers/renderer.js';

let renderer: Renderer | null = null;
after(async () => {
  await renderer?.close();
});

test(
  'the last --disable-features keeps every feature disabled by an earlier one',
  { skip: chromiumSkip },
  async () => {
    renderer = testRenderer();
    await renderer.warm();
    // the browser process: the Chromium process without a --type= switch (its children have one)
    const lines = chromiumProcesses().map((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0'),
    );
    const browser = lines.find((argv) => argv.length > 1 && !argv.some((a) => a.startsWith('--type=')));
    assert.ok(browser, 'the browser process was found');
    const lists = browser
      .filter((a) => a.startsWith('--disable-features='))
      .map((a) => a.slice('--disable-features='.length).split(','));
    assert.ok(lists.length >= 1, 'Chromium was given --disable-features');
    const last = new Set(lists.at(-1));
    const dropped = lists
      .slice(0, -1)
      .flat()
      .filter((f) => f !== '' && !last.has(f));
    assert.deepEqual(
      dropped,
      [],
      `features switched back on by the last --disable-features: ${dropped.join(', ')}`,
    );
    for (const ours of ['NetworkPrediction', 'OptimizationHints', 'NetworkTimeServiceQuerying'])
      assert.ok(last.has(ours), `${ours} is disabled`);
  },
);
