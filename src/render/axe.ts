// axe-core in the rendered page: its violations, reported in the render's accessibility
// section (not scored). The source is read once, on the first use.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeViolation } from '../analyzer/types.js';

const requirePackage = createRequire(import.meta.url);
const AXE_SOURCE_PATH = requirePackage.resolve('axe-core/axe.min.js');
let axeSource: string | null = null;

/** axe-core's violations in the page (evaluated through the DevTools protocol: the page's CSP does not apply). */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(AXE_SOURCE_PATH, 'utf8');
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            ctx: unknown,
            o: unknown,
          ) => Promise<{
            violations: {
              id: string;
              impact: string;
              help: string;
              helpUrl: string;
              nodes: { target: unknown[] }[];
            }[];
          }>;
        };
      }
    ).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: (v.impact ?? 'minor') as AxeViolation['impact'],
      help: v.help,
      help_url: v.helpUrl,
      targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
      nodes: v.nodes.length,
    }));
  });
}
