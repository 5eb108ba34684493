// The instance admin's operations (types.ts). Disabling a person sets users.disabled_at: the
// database signals the change (the key-changes trigger), so every process's key cache forgets
// their keys at once, and each dashboard session reads the person at every request. Each change
// is recorded in the instance log and in the audit log of the person's organisations.
import { notFound, validationError } from '../../errors.js';
import { withTransaction, type Db } from '../../store/database.js';
import { listInstanceEntries } from '../../store/instance-log.repository.js';
import { listMemberships } from '../../store/memberships.repository.js';
import { revokeUserSessions } from '../../store/sessions.repository.js';
import { orgUsage } from '../../store/usage.repository.js';
import {
  findUserById,
  listUsers,
  updateUser,
  type UserRow,
} from '../../store/users.repository.js';
import type { ServiceContext } from '../shared/context.js';
import { findUserRef } from '../shared/lookup.js';
import { recordInstanceChange } from '../shared/audit-log.js';
import type { AdminServices, AdminUser } from './types.js';

export function createAdminServices(
  ctx: Pick<ServiceContext, 'db' | 'now'>,
  deps: {
    keysChanged: () => Promise<void>;
    totpDisable: (userId: number, alsoInTransaction?: (trx: Db) => Promise<void>) => Promise<void>;
  },
): AdminServices {
  const { db } = ctx;

  async function userOf(ref: string | number): Promise<UserRow> {
    const user = await findUserRef(db, ref);
    if (!user) throw notFound(`No such user: ${ref}.`);
    return user;
  }

  /**
   * A change to a person, in the instance log and in the audit log of every organisation they
   * belong to (docs/teams.md "The instance admin"): the person's id and name, never a secret.
   */
  async function recordForPerson(trx: Db, now: Date, user: UserRow, action: string): Promise<void> {
    const orgIds = (await listMemberships(trx, user.id)).map((m) => m.orgId);
    await recordInstanceChange(trx, now, { action, target: { type: 'user', id: user.id }, changes: { name: user.name } }, orgIds);
  }

  async function present(user: UserRow): Promise<AdminUser> {
    const memberships = await listMemberships(db, user.id);
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      isAdmin: user.isAdmin,
      disabledAt: user.disabledAt,
      totpEnabled: user.totpEnabled,
      hasPassword: user.hasPassword,
      organizations: memberships.map((m) => ({ name: m.orgName, role: m.role })),
    };
  }

  return {
    async users() {
      return Promise.all((await listUsers(db)).map(present));
    },

    async organizations() {
      const now = ctx.now();
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
      return orgUsage(db, month);
    },

    async setDisabled(ref, disabled) {
      const user = await userOf(ref);
      const now = ctx.now();
      if (
        disabled &&
        user.isAdmin &&
        (await listUsers(db)).filter((u) => u.isAdmin && u.disabledAt === null).length <= 1
      )
        throw validationError({ user: ['The last instance admin cannot be disabled.'] });
      const changed = (user.disabledAt !== null) !== disabled;
      await withTransaction(db, async (trx) => {
        await updateUser(trx, user.id, { disabledAt: disabled ? now.toISOString() : null });
        if (disabled) await revokeUserSessions(trx, user.id, now.toISOString());
        if (changed) await recordForPerson(trx, now, user, disabled ? 'user.disabled' : 'user.enabled');
      });
      await deps.keysChanged();
      return present((await findUserById(db, user.id))!);
    },

    async setAdmin(ref, admin) {
      const user = await userOf(ref);
      if (!admin && user.isAdmin && (await listUsers(db)).filter((u) => u.isAdmin).length <= 1)
        throw validationError({ admin: ['The last instance admin stays one: make another admin first.'] });
      await withTransaction(db, async (trx) => {
        await updateUser(trx, user.id, { isAdmin: admin });
        if (user.isAdmin !== admin)
          await recordForPerson(trx, ctx.now(), user, admin ? 'user.admin_granted' : 'user.admin_revoked');
      });
      return present((await findUserById(db, user.id))!);
    },

    async resetSecondFactor(ref) {
      const user = await userOf(ref);
      // the second factor's own service turns it off (its codes go with it), the record in its transaction
      await deps.totpDisable(user.id, async (trx) => {
        if (user.totpEnabled) await recordForPerson(trx, ctx.now(), user, 'user.second_factor_reset');
      });
      return present((await findUserById(db, user.id))!);
    },

    async log(limit = 50) {
      return listInstanceEntries(db, limit);
    },
  };
}
