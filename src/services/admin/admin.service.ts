// The instance admin's operations (types.ts). Disabling a person sets users.disabled_at: the
// database signals the change (the key-changes trigger), so every process's key cache forgets
// their keys at once, and each dashboard session reads the person at every request.
import { notFound, validationError } from '../../errors.js';
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
import type { AdminServices, AdminUser } from './types.js';

export function createAdminServices(
  ctx: Pick<ServiceContext, 'db' | 'now'>,
  deps: { keysChanged: () => Promise<void>; totpDisable: (userId: number) => Promise<void> },
): AdminServices {
  const { db } = ctx;

  async function userOf(ref: string | number): Promise<UserRow> {
    const user = await findUserRef(db, ref);
    if (!user) throw notFound(`No such user: ${ref}.`);
    return user;
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
      const now = ctx.now().toISOString();
      if (
        disabled &&
        user.isAdmin &&
        (await listUsers(db)).filter((u) => u.isAdmin && u.disabledAt === null).length <= 1
      )
        throw validationError({ user: ['The last instance admin cannot be disabled.'] });
      await updateUser(db, user.id, { disabledAt: disabled ? now : null });
      if (disabled) await revokeUserSessions(db, user.id, now);
      await deps.keysChanged();
      return present((await findUserById(db, user.id))!);
    },

    async setAdmin(ref, admin) {
      const user = await userOf(ref);
      if (!admin && user.isAdmin && (await listUsers(db)).filter((u) => u.isAdmin).length <= 1)
        throw validationError({ admin: ['The last instance admin stays one: make another admin first.'] });
      await updateUser(db, user.id, { isAdmin: admin });
      return present((await findUserById(db, user.id))!);
    },

    async resetSecondFactor(ref) {
      const user = await userOf(ref);
      await deps.totpDisable(user.id);
      return present((await findUserById(db, user.id))!);
    },
  };
}
