// A project's ignore rules in the services (docs/sites.md, "Issue states and ignore rules"):
// read from the project's settings (per user and project), and applied to every audit of a
// page of the project the services make — a single audit, a re-audit (API, dashboard,
// schedule) and a crawl's page (which reads them once per batch). The pure part is
// src/crawl/ignore.ts.
import { createHash } from 'node:crypto';
import type { AuditReport } from '../../analyzer/types.js';
import { activeRules, ignoreChecks, type IgnoreRule, type IgnoredCheck } from '../../crawl/ignore.js';
import type { Db } from '../../store/database.js';
import { findProjectSettings } from '../../store/projects.repository.js';

/** A rule's id: derived from what it says, so the same rule sent again keeps its id. */
export function ruleId(r: Pick<IgnoreRule, 'id' | 'url_pattern' | 'reason' | 'expires_at'>): string {
  const h = createHash('sha256')
    .update([r.id, r.url_pattern, r.reason, r.expires_at ?? ''].join('\u0000'))
    .digest('hex');
  return `rule_${h.slice(0, 12)}`;
}

/** The rules of the stored settings (projects.settings, JSON); rules stored before rule ids get theirs. */
function rulesOf(settings: string | null): IgnoreRule[] {
  if (settings === null) return [];
  const stored = (JSON.parse(settings) as { ignore?: Omit<IgnoreRule, 'rule_id'>[] & { rule_id?: string }[] })
    .ignore;
  return (stored ?? []).map((r) => ({ ...r, rule_id: (r as IgnoreRule).rule_id || ruleId(r) }) as IgnoreRule);
}

/** Every ignore rule of the user's project (expired ones too); none when it has no settings. */
export async function projectRules(db: Db, userId: number, project: string): Promise<IgnoreRule[]> {
  const row = await findProjectSettings(db, userId, project);
  return row === null ? [] : rulesOf(row.settings);
}

/** The audit with the rules that apply at `now` applied (src/crawl/ignore.ts ignoreChecks). */
export function applyRules(
  report: AuditReport,
  rules: readonly IgnoreRule[],
  now: Date,
): { report: AuditReport; ignored: IgnoredCheck[] } {
  return ignoreChecks(report, activeRules(rules, now));
}

/** A single audit or a re-audit of a page of the user's: its project's rules read and applied. */
export async function withProjectRules(
  db: Db,
  userId: number,
  report: AuditReport,
  now: Date,
): Promise<AuditReport> {
  const rules = await projectRules(db, userId, report.project);
  return applyRules(report, rules, now).report;
}
