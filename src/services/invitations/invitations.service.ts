// Invitations (docs/teams.md "Invitations"): an admin or owner invites an email address with a
// role; the link (`/invite/<token>`: 256 random bits, kept only as its SHA-256, 7 days, once) is
// shown to the inviter and emailed when SMTP is configured. Accepting makes the person (or adds
// the membership of the person who has the email) and signs in. Who may invite and revoke is the
// access table's (invitations.*); the rules here: an owner is invited by an owner only, an
// existing member is not invited, a new invitation replaces a pending one for the same email.
import { createHash, randomBytes } from 'node:crypto';
import { forbidden, notFound, validationError, type AppError } from '../../errors.js';
import { withTransaction, type Db } from '../../store/database.js';
import {
  findInvitation,
  findInvitationByHash,
  insertInvitation,
  listInvitations,
  markAccepted,
  revokeInvitation,
  revokePendingFor,
  type InvitationRow,
} from '../../store/invitations.repository.js';
import { findMembership, insertMembership } from '../../store/memberships.repository.js';
import { findOrgByName } from '../../store/organizations.repository.js';
import { insertSession } from '../../store/sessions.repository.js';
import { findUserByEmail, findUserByName, insertUser } from '../../store/users.repository.js';
import { authorize } from '../access/table.js';
import { ROLES, type Role } from '../accounts/types.js';
import { recordChange } from '../shared/audit-log.js';
import type { ServicesConfig } from '../shared/config.js';
import { projectLimit } from '../shared/project-limit.js';
import { PERSON_SCRYPT } from '../shared/secrets.js';
import {
  checkNewPassword,
  hashPersonPassword,
  normalEmail,
  SESSION_TTL_MS,
} from '../signin/signin.service.js';
import { INVITATION_DAYS, type InvitationServices, type InvitationState } from './types.js';

const DAY_MS = 86_400_000;
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');
const wellFormed = (token: string) => typeof token === 'string' && /^[A-Za-z0-9_-]{40,64}$/.test(token);

export interface InvitationDeps {
  /** emails the link; false when SMTP is not configured */
  sendInvitation(
    to: string,
    invitation: { url: string; orgName: string; role: string; expiresAt: string },
  ): Promise<boolean>;
  /** the key cache hears of a new membership */
  keysChanged(): Promise<void>;
  /** logs a failed email (never the link) */
  warn?(message: string): void;
}

export function createInvitationServices(
  ctx: { db: Db; now: () => Date; config: Pick<ServicesConfig, 'publicUrl' | 'passwordScrypt'> },
  deps: InvitationDeps,
): InvitationServices {
  const { db } = ctx;
  const iso = () => ctx.now().toISOString();
  const publicUrl = (ctx.config.publicUrl ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  const cost = ctx.config.passwordScrypt ?? PERSON_SCRYPT;

  const stateOf = (i: InvitationRow): InvitationState['state'] =>
    i.acceptedAt !== null
      ? 'accepted'
      : i.revokedAt !== null
        ? 'revoked'
        : Date.parse(i.expiresAt) <= ctx.now().getTime()
          ? 'expired'
          : 'ok';

  /** the checked input (422 naming the fields) */
  function checked(input: { email: string; role: string; projects?: string[] | null | undefined }) {
    const errors: Record<string, string[]> = {};
    const email = normalEmail(typeof input.email === 'string' ? input.email : '');
    if (email === null) errors.email = ['The email must be an email address (name@example.com).'];
    const role = input.role as Role;
    if (!ROLES.includes(role)) errors.role = [`The role must be one of: ${ROLES.join(', ')}.`];
    const limit = projectLimit(input.projects);
    let projects: string[] | null = null;
    if ('error' in limit) errors.projects = [limit.error];
    else {
      projects = limit.projects;
      if (projects !== null && ROLES.includes(role) && role !== 'viewer')
        errors.projects = [`Only a viewer can be limited to projects (the role is ${role}).`];
    }
    if (Object.keys(errors).length > 0) throw validationError(errors);
    return { email: email!, role, projects };
  }

  /** adds the membership and marks the invitation accepted, in one transaction; false when it no longer can be */
  async function join(trx: Db, inv: InvitationRow, userId: number, isNew: boolean): Promise<boolean> {
    const now = iso();
    if (!(await markAccepted(trx, inv.id, userId, now))) return false;
    if (await findMembership(trx, inv.orgId, userId)) return true;
    await insertMembership(trx, {
      orgId: inv.orgId,
      userId,
      role: inv.role,
      projects: inv.role === 'viewer' ? inv.projects : null,
      createdAt: now,
    });
    await recordChange(trx, ctx.now(), inv.orgId, {
      action: 'invitation.accepted',
      target: { type: 'invitation', id: inv.id },
      changes: { email: inv.email, user_id: userId, role: inv.role, new_account: isNew },
    });
    return true;
  }

  async function pendingByToken(token: string): Promise<InvitationRow | null> {
    if (!wellFormed(token)) return null;
    const inv = await findInvitationByHash(db, sha256(token));
    return inv && stateOf(inv) === 'ok' ? inv : null;
  }

  return {
    async create(actor, input) {
      const { email, role, projects } = checked(input);
      if (role === 'owner') authorize(actor, 'owners.write');
      const person = await findUserByEmail(db, email);
      if (person && (await findMembership(db, actor.orgId, person.id)))
        throw validationError({ email: [`${email} is already a member of the organization.`] });
      const token = randomBytes(32).toString('base64url');
      const now = ctx.now();
      const expiresAt = new Date(now.getTime() + INVITATION_DAYS * DAY_MS).toISOString();
      const invitation = await withTransaction(db, async (trx) => {
        const replaced = await revokePendingFor(trx, actor.orgId, email, now.toISOString());
        for (const id of replaced)
          await recordChange(trx, now, actor.orgId, {
            action: 'invitation.revoked',
            target: { type: 'invitation', id },
            changes: { email, replaced: true },
          });
        const inv = await insertInvitation(trx, {
          orgId: actor.orgId,
          email,
          role,
          projects,
          tokenHash: sha256(token),
          createdBy: actor.memberId,
          createdAt: now.toISOString(),
          expiresAt,
        });
        await recordChange(trx, now, actor.orgId, {
          action: 'invitation.created',
          target: { type: 'invitation', id: inv.id },
          changes: { email, role, projects, expires_at: expiresAt },
        });
        return inv;
      });
      const url = `${publicUrl}/invite/${token}`;
      let emailed = false;
      try {
        emailed = await deps.sendInvitation(email, {
          url,
          orgName: invitation.orgName,
          role,
          expiresAt,
        });
      } catch (err) {
        deps.warn?.(`The invitation could not be emailed: ${(err as Error).message}`);
      }
      return { invitation, url, emailed };
    },

    async list(actor, page) {
      return listInvitations(db, actor.orgId, {
        limit: page.perPage,
        offset: (page.page - 1) * page.perPage,
      });
    },

    async pending(actor) {
      const { items } = await listInvitations(db, actor.orgId, { limit: 200, offset: 0 });
      return items.filter((i) => stateOf(i) === 'ok');
    },

    async revoke(actor, id) {
      const inv = await findInvitation(db, actor.orgId, id);
      if (!inv) throw notFound('No such invitation.');
      if (inv.role === 'owner') authorize(actor, 'owners.write');
      const state = stateOf(inv);
      if (state !== 'ok')
        throw validationError({ id: [`The invitation is no longer pending (it is ${state}).`] });
      await withTransaction(db, async (trx) => {
        if (!(await revokeInvitation(trx, actor.orgId, id, iso()))) return;
        await recordChange(trx, ctx.now(), actor.orgId, {
          action: 'invitation.revoked',
          target: { type: 'invitation', id },
          changes: { email: inv.email },
        });
      });
      return (await findInvitation(db, actor.orgId, id))!;
    },

    async check(token) {
      if (!wellFormed(token)) return null;
      const invitation = await findInvitationByHash(db, sha256(token));
      if (!invitation) return null;
      return {
        invitation,
        state: stateOf(invitation),
        personExists: (await findUserByEmail(db, invitation.email)) !== null,
      };
    },

    async acceptAsNew(token, input) {
      const inv = await pendingByToken(token);
      if (!inv) return null;
      const errors: Record<string, string[]> = {};
      const name = input.name.trim();
      if (!NAME_RE.test(name) || /^\d+$/.test(name))
        errors.name = [
          'The name must be 1 to 64 letters, digits, ".", "_", "@" or "-", start with a letter or digit, and not be only digits.',
        ];
      else if ((await findUserByName(db, name)) || (await findOrgByName(db, name)))
        errors.name = [`The name "${name}" is already taken.`];
      try {
        checkNewPassword(input.password);
      } catch (err) {
        Object.assign(errors, (err as AppError).fields);
      }
      if (Object.keys(errors).length > 0) throw validationError(errors);
      if (await findUserByEmail(db, inv.email))
        throw forbidden('An account has this email already: sign in to accept the invitation.');
      const passwordHash = await hashPersonPassword(input.password, cost);
      const token2 = randomBytes(32).toString('base64url');
      const userId = await withTransaction(db, async (trx) => {
        const user = await insertUser(trx, name, iso(), { email: inv.email, passwordHash });
        if (!(await join(trx, inv, user.id, true))) throw gone;
        const now = ctx.now();
        await insertSession(trx, {
          hash: sha256(token2),
          userId: user.id,
          orgId: inv.orgId,
          keyId: null,
          stage: 'active',
          now: now.toISOString(),
          expiresAt: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
        });
        return user.id;
      }).catch(async (err: unknown) => {
        if (err === gone) return null;
        // two accepts at once with the same name or email: the unique columns decide
        if (await findUserByName(db, name))
          throw validationError({ name: [`The name "${name}" is already taken.`] });
        if (await findUserByEmail(db, inv.email))
          throw forbidden('An account has this email already: sign in to accept the invitation.');
        throw err;
      });
      if (userId === null) return null;
      await deps.keysChanged();
      return { token: token2, userId, stage: 'active' };
    },

    async acceptAsPerson(token, userId) {
      const inv = await pendingByToken(token);
      if (!inv) return null;
      const person = await findUserByEmail(db, inv.email);
      if (!person || person.id !== userId)
        throw forbidden(`This invitation is for ${inv.email}: sign in with that account to accept it.`);
      const done = await withTransaction(db, (trx) => join(trx, inv, userId, false));
      if (!done) return null;
      await deps.keysChanged();
      return { orgId: inv.orgId, role: inv.role };
    },
  };
}

/** thrown inside a transaction to roll it back when the invitation was taken meanwhile */
const gone = new Error('invitation no longer pending');
