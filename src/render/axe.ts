// axe-core in the rendered page: its violations and the rules that passed, scored as the
// accessibility category of rendered audits (src/analyzer/accessibility.ts). The source is read
// once, on the first use.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxePass, AxeViolation } from '../analyzer/types.js';

const requirePackage = createRequire(import.meta.url);
const AXE_SOURCE_PATH = requirePackage.resolve('axe-core/axe.min.js');
let axeSource: string | null = null;

/**
 * axe-core's violations and passed rules in the page (evaluated through the DevTools protocol:
 * the page's CSP does not apply). A passed rule's impact is the rule's own (axe's metadata);
 * a rule without one counts as minor.
 */
export async function runAxe(page: Page): Promise<{ violations: AxeViolation[]; passes: AxePass[] }> {
  axeSource ??= readFileSync(AXE_SOURCE_PATH, 'utf8');
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    interface RuleResult {
      id: string;
      impact?: string | null;
      help: string;
      helpUrl: string;
      nodes: { target: unknown[] }[];
    }
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (ctx: unknown, o: unknown) => Promise<{ violations: RuleResult[]; passes: RuleResult[] }>;
          _audit?: { rules?: { id: string; impact?: string }[] };
        };
      }
    ).axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      // passes are listed with one element each (only their ids are kept)
      resultTypes: ['violations'],
    });
    const ruleImpact = new Map((axe._audit?.rules ?? []).map((x) => [x.id, x.impact]));
    return {
      violations: r.violations.map((v) => ({
        id: v.id,
        impact: (v.impact ?? 'minor') as AxeViolation['impact'],
        help: v.help,
        help_url: v.helpUrl,
        targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
        nodes: v.nodes.length,
      })),
      passes: r.passes.map((p) => ({
        id: p.id,
        impact: (ruleImpact.get(p.id) ?? 'minor') as AxePass['impact'],
        help: p.help,
      })),
    };
  });
}
