// A project's ignore rules one by one (POST and DELETE …/ignore-rules, the dashboard's form),
// the log of every change of them with who made it and when (these, and PUT/PATCH of the
// settings' `ignore`), and the project's issue states (docs/sites.md, "Issue states and ignore
// rules"). The rules live in the project's settings (settings.ts); the states are written when
// a crawl ends (src/services/batches/issue-states.ts).
import { recordChange } from '../shared/audit-log.js';
import { projectName } from '../../analyzer/url.js';
import { notFound, validationError, type FieldErrors } from '../../errors.js';
import { withTransaction, type Db } from '../../store/database.js';
import { insertRuleChange, listIssues, listRuleChanges } from '../../store/issues.repository.js';
import { findKeyById } from '../../store/keys.repository.js';
import { findProjectSettings, lockProject, saveProjectSettings } from '../../store/projects.repository.js';
import type { IgnoreRule } from '../../contract/project-settings.js';
import type { RuleChange } from '../../contract/project-issues.js';
import type { ServiceContext } from '../shared/context.js';
import { checkIgnoreRule, decodeSettings, type IgnoreRuleBody } from './settings.js';
import type { ChangeAuthor, ProjectsServices } from './types.js';

/** the changes GET …/ignore-rules answers (newest first) */
const CHANGES_SHOWN = 100;
/** issues a page when the query gives no per_page */
const DEFAULT_PER_PAGE = 25;
/** as many rules as PUT/PATCH take (ProjectSettingsBody) */
const MAX_RULES = 200;

/** the user itself, no key known (a service called with a user id) */
export const DASHBOARD: ChangeAuthor = { via: 'dashboard', keyId: null };

/** Logs a change of the project's rules with who made it, in the change's transaction. */
export async function logRuleChange(
  trx: Db,
  userId: number,
  project: string,
  change: { action: 'add' | 'remove' | 'replace'; ruleId: string | null; rules: IgnoreRule[] },
  by: ChangeAuthor,
  at: string,
): Promise<void> {
  const key = by.keyId === null ? null : await findKeyById(trx, by.keyId);
  await insertRuleChange(trx, userId, project, {
    action: change.action,
    ruleId: change.ruleId,
    rules: JSON.stringify(change.rules),
    via: by.via,
    keyId: by.keyId,
    keyPrefix: key?.prefix ?? null,
    createdAt: at,
  });
}

type RuleServices = Pick<ProjectsServices, 'ignoreRules' | 'addIgnoreRule' | 'removeIgnoreRule' | 'issues'>;

export function createIgnoreRuleServices(ctx: ServiceContext): RuleServices {
  const { db } = ctx;
  const secretKey = ctx.config.secretKey ?? null;

  /** Changes the rules in one transaction under the project's lock; 404 when not the user's. */
  async function change(
    userId: number,
    name: string,
    by: ChangeAuthor,
    edit: (rules: IgnoreRule[]) => { rules: IgnoreRule[]; action: 'add' | 'remove'; rule: IgnoreRule },
  ): Promise<IgnoreRule> {
    const project = projectName(name);
    return withTransaction(db, async (trx) => {
      await lockProject(trx, userId, project);
      const row = await findProjectSettings(trx, userId, project);
      if (!row) throw notFound('No such project.');
      const { settings } = decodeSettings(secretKey, row, false);
      const next = edit(settings.ignore);
      const at = ctx.now().toISOString();
      // the secrets' ciphertext stays as it is
      await saveProjectSettings(trx, userId, project, {
        settings: JSON.stringify({ ...settings, ignore: next.rules }),
        secrets: row.secrets,
        now: at,
      });
      await logRuleChange(
        trx,
        userId,
        project,
        { action: next.action, ruleId: next.rule.rule_id, rules: [next.rule] },
        by,
        at,
      );
      await recordChange(trx, ctx.now(), userId, {
        action: next.action === 'add' ? 'project.ignore_rule_added' : 'project.ignore_rule_removed',
        target: { type: 'project', id: project },
        changes: { rule: next.rule },
      });
      return next.rule;
    });
  }

  return {
    async ignoreRules(userId, name) {
      const project = projectName(name);
      const row = await findProjectSettings(db, userId, project);
      if (!row) throw notFound('No such project.');
      const rules = decodeSettings(secretKey, row, false).settings.ignore;
      const changes: RuleChange[] = (await listRuleChanges(db, userId, project, CHANGES_SHOWN)).map((c) => ({
        action: c.action,
        rule_id: c.ruleId,
        rules: JSON.parse(c.rules) as IgnoreRule[],
        by: { via: c.via, key_id: c.keyId, key_prefix: c.keyPrefix },
        at: c.createdAt,
      }));
      return { rules, changes };
    },

    addIgnoreRule(userId, name, body: IgnoreRuleBody, by = DASHBOARD) {
      const errors: FieldErrors = {};
      const rule = checkIgnoreRule(body, '', errors);
      if (rule !== null && rule.expires_at !== null && Date.parse(rule.expires_at) <= ctx.now().getTime())
        errors.expires_at = [
          'The expires_at must be in the future: a rule that has expired applies to nothing.',
        ];
      if (rule === null || Object.keys(errors).length > 0) throw validationError(errors);
      return change(userId, name, by, (rules) => {
        const same = rules.find((r) => r.rule_id === rule.rule_id);
        if (same)
          throw validationError({ id: [`The project has this rule already (rule_id ${same.rule_id}).`] });
        if (rules.length >= MAX_RULES)
          throw validationError({
            id: [`A project has at most ${MAX_RULES} ignore rules: remove one first.`],
          });
        return { rules: [...rules, rule], action: 'add', rule };
      });
    },

    async removeIgnoreRule(userId, name, ruleId, by = DASHBOARD) {
      await change(userId, name, by, (rules) => {
        const rule = rules.find((r) => r.rule_id === ruleId);
        if (!rule) throw notFound('No such ignore rule.');
        return { rules: rules.filter((r) => r !== rule), action: 'remove', rule };
      });
    },

    async issues(userId, name, q) {
      const project = projectName(name);
      if (!(await findProjectSettings(db, userId, project))) throw notFound('No such project.');
      const page = q.page ?? 1;
      const perPage = q.perPage ?? DEFAULT_PER_PAGE;
      return listIssues(db, userId, project, {
        state: q.state,
        kind: q.kind,
        limit: perPage,
        offset: (page - 1) * perPage,
      });
    },
  };
}
