// The access table (docs/teams.md prints it): what each operation needs — the member's role at
// least, and the key's scope. Every API route names its operation (its OpenAPI tag and method:
// `reports` + GET is `reports.read`, + any other method `reports.write`; a route may name
// another in its config), and so does every dashboard page; the HTTP layers check the caller
// against this table before anything else runs. An operation this table does not name is
// refused (403), whoever asks.
//
// A key never does more than its member's role allows: a viewer's keys read only, whatever
// they were made with, and a role lowered or a member removed takes effect on their keys at
// the next request (src/services/accounts/accounts.service.ts authContextOf).
import { forbidden } from '../../errors.js';
import { ROLES, type Actor, type KeyScope, type Role } from '../accounts/types.js';

export interface AccessRule {
  /** the weakest role that may */
  role: Role;
  /** the key scope it takes (`read`: GET only) */
  scope: KeyScope;
  /** what it covers (the docs' table) */
  what: string;
  /** only the instance admin (users.is_admin), whatever their role in the organisation */
  instanceAdmin?: true;
}

export const ACCESS = {
  'account.read': { role: 'viewer', scope: 'read', what: 'the key, its member and organisation' },
  'reports.read': {
    role: 'viewer',
    scope: 'read',
    what: 'reports, their runs, history, diffs, CSV and PDF exports',
  },
  'reports.write': {
    role: 'member',
    scope: 'write',
    what: 'audit a page, re-audit, edit (privacy, password) and delete reports',
  },
  'projects.read': {
    role: 'viewer',
    scope: 'read',
    what: "projects, a project's settings, trend and issues",
  },
  'projects.write': {
    role: 'member',
    scope: 'write',
    what: "a project's settings and ignore rules, Crawl now, delete a project",
  },
  'batches.read': {
    role: 'viewer',
    scope: 'read',
    what: 'crawls and batches, their results, diffs and exports',
  },
  'batches.write': { role: 'member', scope: 'write', what: 'start, cancel and delete crawls and batches' },
  'builds.read': {
    role: 'viewer',
    scope: 'read',
    what: "a project's CI builds and their comparisons with the base build",
  },
  'builds.write': {
    role: 'member',
    scope: 'write',
    what: 'upload a CI build (`pagegrade ci --upload`): each URL a run of its page’s report',
  },
  'schedules.read': { role: 'viewer', scope: 'read', what: 'schedules' },
  'schedules.write': { role: 'member', scope: 'write', what: 'set and delete schedules' },
  'webhooks.read': { role: 'admin', scope: 'read', what: 'webhooks and their deliveries' },
  'webhooks.write': { role: 'admin', scope: 'write', what: 'add, change, test and delete webhooks' },
  'branding.read': { role: 'admin', scope: 'read', what: "the PDF reports' branding" },
  'branding.write': { role: 'admin', scope: 'write', what: "set and remove the PDF reports' branding" },
  'keys.own': {
    role: 'member',
    scope: 'write',
    what: "one's own API keys (never more than one's role; a viewer's keys are made by an admin)",
  },
  'organization.read': { role: 'viewer', scope: 'read', what: 'the organisation and one’s role in it' },
  'members.read': { role: 'admin', scope: 'read', what: 'the members and their roles' },
  'members.write': {
    role: 'admin',
    scope: 'write',
    what: "change a member's role (up to admin) or projects, remove a member who is not an owner",
  },
  'owners.write': {
    role: 'owner',
    scope: 'write',
    what: 'make or unmake owners, remove an owner (never the last)',
  },
  'security.own': {
    role: 'viewer',
    scope: 'read',
    what: "one's own password and second factor, and switching to another of one's organisations (dashboard)",
  },
  'instance.read': {
    role: 'viewer',
    scope: 'read',
    what: 'the instance admin page: every person and organisation, their usage (instance admin only)',
    instanceAdmin: true,
  },
  'instance.write': {
    role: 'viewer',
    scope: 'write',
    what: "disable or enable a person, reset a second factor, set the sign-up mode (instance admin only)",
    instanceAdmin: true,
  },
  'audit-log.read': {
    role: 'admin',
    scope: 'read',
    what: "the organisation's audit log: who changed what, when and from where",
  },
  'shares.read': { role: 'member', scope: 'read', what: "the organisation's share links" },
  'shares.write': {
    role: 'member',
    scope: 'write',
    what: "share a report or a project's latest crawl by an expiring link; revoke a share link",
  },
  'invitations.read': {
    role: 'admin',
    scope: 'read',
    what: "the organisation's invitations (never their links)",
  },
  'invitations.write': {
    role: 'admin',
    scope: 'write',
    what: 'invite by email with a role (an owner invites owners), revoke an invitation',
  },
} as const satisfies Record<string, AccessRule>;

export type Operation = keyof typeof ACCESS;

export const isOperation = (name: unknown): name is Operation =>
  typeof name === 'string' && Object.hasOwn(ACCESS, name);

/** true when `role` is `needed` or stronger */
export const roleAtLeast = (role: Role, needed: Role): boolean =>
  ROLES.indexOf(role) >= ROLES.indexOf(needed);

/**
 * The operation of an API route from its OpenAPI tag and method (GET/HEAD read, others write),
 * or the one it names; null when the table has none (the route is refused).
 */
export function operationOf(
  method: string,
  tag: string | undefined,
  named: string | undefined,
): Operation | null {
  if (named !== undefined) return isOperation(named) ? named : null;
  if (tag === undefined) return null;
  const op = `${tag}.${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}`;
  return isOperation(op) ? op : null;
}

/** Whether the actor may: null, or the reason it may not. */
export function denial(
  actor: Pick<Actor, 'role' | 'scopes'> & { isAdmin?: boolean },
  op: Operation | null,
): string | null {
  if (op === null) return 'Forbidden: this operation has no access rule.';
  const rule: AccessRule = ACCESS[op];
  if (rule.instanceAdmin && actor.isAdmin !== true) return 'Forbidden: this needs the instance admin.';
  if (!roleAtLeast(actor.role, rule.role))
    return `Forbidden: this needs the ${rule.role} role or higher in the organization (yours: ${actor.role}).`;
  if (!actor.scopes.includes(rule.scope))
    return `Forbidden: this API key lacks the ${rule.scope} scope (it has: ${actor.scopes.join(', ')}).`;
  return null;
}

/** Throws 403 (naming the role or scope needed) unless the actor may. */
export function authorize(actor: Pick<Actor, 'role' | 'scopes'> & { isAdmin?: boolean }, op: Operation | null): void {
  const reason = denial(actor, op);
  if (reason !== null) throw forbidden(reason);
}
