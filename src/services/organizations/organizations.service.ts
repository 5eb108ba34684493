// Organisations and their members (docs/teams.md). Who may call what is the access table's
// (src/services/access/table.ts: members.read, members.write, owners.write); the rules here are
// the ones no table can hold: an admin never makes, changes or removes an owner; the last owner
// stays; only a viewer is limited to projects. Every change reaches the members' keys at their
// next request (the key cache is told: `keysChanged`).
import { notFound, validationError } from '../../errors.js';
import { withTransaction, type Db } from '../../store/database.js';
import {
  countOwners,
  deleteMembership,
  findMembership,
  insertMembership,
  listMembers,
  updateMembership,
  type MembershipRow,
} from '../../store/memberships.repository.js';
import { findOrgByName, insertOrg, listOrgs } from '../../store/organizations.repository.js';
import { findOrgRef, findUserRef } from '../shared/lookup.js';
import { authorize } from '../access/table.js';
import { projectLimit } from '../shared/project-limit.js';
import { diffFields, recordChange } from '../shared/audit-log.js';
import { ROLES, type Actor, type Role } from '../accounts/types.js';
import type { Member, MemberChange, Organization, OrganizationServices, Quotas } from './types.js';
import { getQuotas, setQuotas } from '../../store/quotas.repository.js';

const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._@ -]{0,63}$/;
const toMember = (m: MembershipRow): Member => ({
  userId: m.userId,
  name: m.userName,
  role: m.role,
  projects: m.projects,
  joinedAt: m.createdAt,
});

export function createOrganizationServices(
  ctx: { db: Db; now: () => Date },
  keysChanged: () => Promise<void>,
): OrganizationServices {
  const { db } = ctx;
  const iso = () => ctx.now().toISOString();

  async function orgOf(ref: string | number): Promise<Organization> {
    const org = await findOrgRef(db, ref);
    if (!org) throw notFound(`No such organization: ${ref}.`);
    return org;
  }

  async function userOf(ref: string | number) {
    const user = await findUserRef(db, ref);
    if (!user) throw notFound(`No such user: ${ref}.`);
    return user;
  }

  /** the role and projects a change asks for, checked (422 naming the field) */
  function checked(current: { role: Role; projects: string[] | null }, change: MemberChange) {
    const errors: Record<string, string[]> = {};
    const role = change.role ?? current.role;
    if (!ROLES.includes(role)) errors.role = [`The role must be one of: ${ROLES.join(', ')}.`];
    const limit = projectLimit(change.projects === undefined ? current.projects : change.projects);
    const projects = 'projects' in limit ? limit.projects : null;
    if ('error' in limit) errors.projects = [limit.error];
    else if (projects !== null && role !== 'viewer')
      errors.projects = [`Only a viewer can be limited to projects (the role is ${role}).`];
    if (Object.keys(errors).length > 0) throw validationError(errors);
    return { role, projects };
  }

  /**
   * Applies a change to `userId`'s membership of `orgId` in one transaction: the last owner
   * stays one. `by` (an actor) must be an owner to touch an owner or make one.
   */
  async function change(orgId: number, userId: number, c: MemberChange, by: Actor | null): Promise<Member> {
    const out = await withTransaction(db, async (trx) => {
      const m = await findMembership(trx, orgId, userId);
      if (!m) throw notFound('No such member.');
      const next = checked(m, c);
      if (by !== null && (m.role === 'owner' || next.role === 'owner')) authorize(by, 'owners.write');
      if (m.role === 'owner' && next.role !== 'owner' && (await countOwners(trx, orgId)) <= 1)
        throw validationError({
          role: ['The last owner of the organization stays an owner: make another owner first.'],
        });
      await updateMembership(trx, orgId, userId, next);
      const changes = diffFields({ role: m.role, projects: m.projects }, next);
      if (Object.keys(changes).length > 0)
        await recordChange(trx, ctx.now(), orgId, {
          action: changes.role ? 'member.role_changed' : 'member.projects_changed',
          target: { type: 'member', id: userId },
          changes: { name: m.userName, ...changes },
        });
      return { ...m, ...next };
    });
    await keysChanged();
    return toMember(out);
  }

  async function remove(orgId: number, userId: number, by: Actor | null): Promise<void> {
    await withTransaction(db, async (trx) => {
      const m = await findMembership(trx, orgId, userId);
      if (!m) throw notFound('No such member.');
      if (by !== null && m.role === 'owner') authorize(by, 'owners.write');
      if (m.role === 'owner' && (await countOwners(trx, orgId)) <= 1)
        throw validationError({
          user: ['The last owner of the organization cannot leave it: make another owner first.'],
        });
      await deleteMembership(trx, orgId, userId);
      await recordChange(trx, ctx.now(), orgId, {
        action: 'member.removed',
        target: { type: 'member', id: userId },
        changes: { name: m.userName, role: m.role },
      });
    });
    await keysChanged();
  }

  return {
    async show(actor) {
      const org = await orgOf(actor.orgId);
      return { ...org, role: actor.role, quotas: await getQuotas(db, org.id) };
    },
    async members(actor) {
      return (await listMembers(db, actor.orgId)).map(toMember);
    },
    setMember: (actor, userId, c) => change(actor.orgId, userId, c, actor),
    removeMember: (actor, userId) => remove(actor.orgId, userId, actor),

    list: () => listOrgs(db),
    async create(name, owner) {
      if (!NAME_RE.test(name) || /^\d+$/.test(name))
        throw validationError({
          name: [
            'The name must be 1 to 64 letters, digits, spaces, ".", "_", "@" or "-", start with a letter or digit, and not be only digits.',
          ],
        });
      const user = await userOf(owner);
      if (await findOrgByName(db, name))
        throw validationError({ name: [`The name "${name}" is already taken.`] });
      return withTransaction(db, async (trx) => {
        const now = iso();
        const org = await insertOrg(trx, name, now);
        await insertMembership(trx, {
          orgId: org.id,
          userId: user.id,
          role: 'owner',
          projects: null,
          createdAt: now,
        });
        return org;
      });
    },
    async addMember(orgRef, userRef, role, projects = null) {
      const org = await orgOf(orgRef);
      const user = await userOf(userRef);
      const next = checked({ role, projects: null }, { role, projects });
      const taken = () => validationError({ user: [`${user.name} is already a member of ${org.name}.`] });
      if (await findMembership(db, org.id, user.id)) throw taken();
      try {
        await withTransaction(db, async (trx) => {
          await insertMembership(trx, { orgId: org.id, userId: user.id, ...next, createdAt: iso() });
          await recordChange(trx, ctx.now(), org.id, {
            action: 'member.added',
            target: { type: 'member', id: user.id },
            changes: { name: user.name, ...next },
          });
        });
      } catch (err) {
        // lost a race on the primary key
        if (await findMembership(db, org.id, user.id)) throw taken();
        throw err;
      }
      const m = await findMembership(db, org.id, user.id);
      if (!m) throw notFound('No such member.');
      return toMember(m);
    },
    async membersOf(orgRef) {
      const org = await orgOf(orgRef);
      return (await listMembers(db, org.id)).map(toMember);
    },
    async setMemberOf(orgRef, userRef, c) {
      const org = await orgOf(orgRef);
      const user = await userOf(userRef);
      return change(org.id, user.id, c, null);
    },
    async setQuotas(orgRef, change) {
      const org = await orgOf(orgRef);
      const errors: Record<string, string[]> = {};
      const fields = {
        reportsPerMonth: 'reports_per_month',
        pagesPerCrawl: 'pages_per_crawl',
        schedules: 'schedules',
      } as const;
      for (const [k, field] of Object.entries(fields) as [keyof Quotas, string][]) {
        const v = change[k];
        if (v !== undefined && v !== null && (!Number.isSafeInteger(v) || v < 1 || v > 2_147_483_647))
          errors[field] = [`The ${field} quota must be a whole number from 1, or none.`];
      }
      if (Object.keys(errors).length > 0) throw validationError(errors);
      return withTransaction(db, async (trx) => {
        const before = await getQuotas(trx, org.id);
        const next: Quotas = {
          reportsPerMonth:
            change.reportsPerMonth === undefined ? before.reportsPerMonth : change.reportsPerMonth,
          pagesPerCrawl: change.pagesPerCrawl === undefined ? before.pagesPerCrawl : change.pagesPerCrawl,
          schedules: change.schedules === undefined ? before.schedules : change.schedules,
        };
        await setQuotas(trx, org.id, next);
        const changes = diffFields({ ...before }, { ...next });
        if (Object.keys(changes).length > 0)
          await recordChange(trx, ctx.now(), org.id, {
            action: 'organization.quotas_changed',
            target: { type: 'organization', id: org.id },
            changes,
          });
        return next;
      });
    },
    async removeFrom(orgRef, userRef) {
      const org = await orgOf(orgRef);
      const user = await userOf(userRef);
      await remove(org.id, user.id, null);
    },
  };
}
