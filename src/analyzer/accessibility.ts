// The accessibility category of rendered audits (docs/rendering.md): every axe-core rule that
// applied to the page becomes a check `axe_<rule id>` (dashes as underscores), failed for a
// violation and passed otherwise, with a priority from axe's impact — critical and serious →
// high, moderate → medium, minor → low — and weighted like every other check (SCORING.weights),
// so it enters the rendered report's overall score. Rules that applied to nothing, and the
// ones axe could not decide ("needs review"), are not judged and not listed. Pure: no I/O.
import type { AxeImpact, AxePass, AxeViolation, CheckResult, Priority } from './types.js';

export const AXE_PRIORITY: Readonly<Record<AxeImpact, Priority>> = {
  critical: 'high',
  serious: 'high',
  moderate: 'medium',
  minor: 'low',
};

/** The check id of an axe-core rule: `image-alt` → `axe_image_alt`. */
export const axeCheckId = (rule: string): string => `axe_${rule.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;

/** The accessibility checks of one axe-core run: the violations first (axe's order), then the passed rules by id. */
export function accessibilityChecks(
  violations: readonly AxeViolation[],
  passes: readonly AxePass[],
): CheckResult[] {
  const out: CheckResult[] = [];
  const seen = new Set<string>();
  for (const v of violations) {
    seen.add(v.id);
    const n = v.nodes;
    out.push({
      id: axeCheckId(v.id),
      category: 'accessibility',
      priority: AXE_PRIORITY[v.impact] ?? 'low',
      passed: false,
      title: v.help,
      message: `${n} element${n === 1 ? '' : 's'} break${n === 1 ? 's' : ''} the axe-core rule ${v.id} (impact ${v.impact}).`,
      value: n,
      details: {
        type: 'list',
        items: v.targets,
        ...(n > v.targets.length ? { truncated: n - v.targets.length } : {}),
      },
      how_to_fix: `${v.help}: see ${v.help_url} for the rule and how to fix each element.`,
    });
  }
  const passed = passes
    .filter((p) => !seen.has(p.id))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const p of passed) {
    out.push({
      id: axeCheckId(p.id),
      category: 'accessibility',
      priority: AXE_PRIORITY[p.impact] ?? 'low',
      passed: true,
      title: p.help,
      message: `No element breaks the axe-core rule ${p.id}.`,
      how_to_fix: `${p.help} (axe-core rule ${p.id}).`,
    });
  }
  return out;
}
