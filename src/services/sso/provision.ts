// Who a single sign-on is (docs/teams.md "Single sign-on"): the person an identity (issuer,
// subject) was linked to before; else the person with the provider's verified email; else a
// new person, when the email's domain has an automatic membership (PAGEGRADE_OIDC_DOMAINS: they
// join that organisation) or sign-up is open (a person and an organisation of their own, as
// /signup makes). A person's first single sign-on (no identity linked yet) also gives them their
// domain's membership when they lack it; later sign-ins do not, so a member removed stays out.
import { withTransaction } from '../../store/database.js';
import { findMembership, insertMembership } from '../../store/memberships.repository.js';
import { findOrgByName } from '../../store/organizations.repository.js';
import { findIdentity } from '../../store/sso.repository.js';
import { findUserByEmail, findUserById, findUserByName, insertUser } from '../../store/users.repository.js';
import { recordChange } from '../shared/audit-log.js';
import type { ServiceContext } from '../shared/context.js';
import type { UsersServices } from '../accounts/types.js';
import type { OrganizationServices } from '../organizations/types.js';
import { normalEmail } from '../signin/signin.service.js';
import type { SignInServices } from '../signin/types.js';
import type { SsoRefused } from './types.js';

type Found = { ok: true; userId: number } | SsoRefused;

const disabled: SsoRefused = {
  ok: false,
  reason: 'disabled',
  detail: 'Your account is disabled: ask the instance administrator.',
};

/** A person's name from their email's local part (`anna.b@x` → `anna.b`), as names go: letters, digits, . _ @ - */
function baseName(email: string): string {
  const local = email
    .split('@')[0]!
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '');
  const name = local.slice(0, 56);
  return name === '' || /^\d+$/.test(name) ? `user-${name}`.slice(0, 56) : name;
}

export function createProvisioning(
  ctx: Pick<ServiceContext, 'db' | 'config' | 'now'>,
  deps: {
    users: Pick<UsersServices, 'create'>;
    signin: Pick<SignInServices, 'signupMode'>;
    organizations: Pick<OrganizationServices, 'addMember'>;
  },
) {
  const { db } = ctx;
  const rules = ctx.config.oidc?.domains ?? [];
  const ruleFor = (email: string) => rules.find((r) => r.domain === email.split('@')[1]);

  /** a name no person or organisation has: the base, else base-2, base-3… */
  async function freeName(email: string): Promise<string> {
    const base = baseName(email);
    for (let i = 1; i <= 1000; i++) {
      const name = i === 1 ? base : `${base}-${i}`;
      if (!(await findUserByName(db, name)) && !(await findOrgByName(db, name))) return name;
    }
    return `${base}-${Date.now()}`;
  }

  const missingOrg = (name: string, domain: string): SsoRefused => ({
    ok: false,
    reason: 'no_account',
    detail: `The organization "${name}" that PAGEGRADE_OIDC_DOMAINS names for ${domain} does not exist: ask the instance administrator.`,
  });

  return {
    async person(issuer: string, subject: string, providerEmail: string): Promise<Found> {
      const linked = await findIdentity(db, issuer, subject);
      if (linked !== null) {
        const user = await findUserById(db, linked);
        if (user) return user.disabledAt === null ? { ok: true, userId: user.id } : disabled;
      }
      const email = normalEmail(providerEmail);
      if (email === null)
        return {
          ok: false,
          reason: 'unverified',
          detail: 'The identity provider gave no valid email address.',
        };
      const rule = ruleFor(email);
      const existing = await findUserByEmail(db, email);
      if (existing) {
        if (existing.disabledAt !== null) return disabled;
        // the first single sign-on of this person: their domain's membership when they lack it
        if (rule && linked === null) {
          const org = await findOrgByName(db, rule.organization);
          if (org && !(await findMembership(db, org.id, existing.id)))
            await deps.organizations.addMember(org.id, existing.id, rule.role).catch(() => undefined);
        }
        return { ok: true, userId: existing.id };
      }
      if (rule) {
        const org = await findOrgByName(db, rule.organization);
        if (!org) return missingOrg(rule.organization, rule.domain);
        const name = await freeName(email);
        const userId = await withTransaction(db, async (trx) => {
          const now = ctx.now();
          const user = await insertUser(trx, name, now.toISOString(), { email });
          await insertMembership(trx, {
            orgId: org.id,
            userId: user.id,
            role: rule.role,
            projects: null,
            createdAt: now.toISOString(),
          });
          await recordChange(trx, now, org.id, {
            action: 'member.added',
            target: { type: 'member', id: user.id },
            changes: { name, role: rule.role, projects: null, via: 'single sign-on', domain: rule.domain },
          });
          return user.id;
        });
        return { ok: true, userId };
      }
      if ((await deps.signin.signupMode()) === 'open') {
        const { user } = await deps.users.create(await freeName(email), { email });
        return { ok: true, userId: user.id };
      }
      return {
        ok: false,
        reason: 'no_account',
        detail: `No account has the email ${email}, and sign-up is closed on this instance: ask its administrator for an invitation.`,
      };
    },
  };
}
