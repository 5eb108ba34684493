// The organisations feature's types (docs/teams.md): an organisation, its members and their
// roles, and the services that manage them (the API's /organization routes and the CLI).
import type { Actor, Role } from '../accounts/types.js';

// an organisation and a member as the API shows them are the contract's
export type { Member, Organization } from '../../contract/organization.js';
import type { Member, Organization } from '../../contract/organization.js';

export interface MemberChange {
  role?: Role | undefined;
  /** a viewer's projects; null or [] lifts the limit */
  projects?: string[] | null | undefined;
}

/** An organisation's quotas (null: none); docs/teams.md "Quotas". */
export type { Quotas } from '../../store/quotas.repository.js';
import type { Quotas } from '../../store/quotas.repository.js';

export interface OrganizationServices {
  /** the actor's organisation, its role there and its quotas */
  show(actor: Actor): Promise<Organization & { role: Role; quotas: Quotas }>;
  /** the actor's organisation's members, by the date they joined */
  members(actor: Actor): Promise<Member[]>;
  /**
   * a member's role and projects: 404 for someone not a member; making, changing or unmaking an
   * owner takes an owner (403); the last owner stays one (422 `role`); projects are for viewers
   * only (422 `projects`). Their keys follow at their next request.
   */
  setMember(actor: Actor, userId: number, change: MemberChange): Promise<Member>;
  /** removes a member (404 if none; an owner takes an owner; never the last owner: 422) */
  removeMember(actor: Actor, userId: number): Promise<void>;

  // ── the instance's (the CLI: no actor) ──
  list(): Promise<Organization[]>;
  /** a new organisation owned by `owner` (a user's name or id); 422 `name` when taken or invalid */
  create(name: string, owner: string | number): Promise<Organization>;
  /** adds `user` to `org` (names or ids) with `role`; 422 when already a member */
  addMember(
    org: string | number,
    user: string | number,
    role: Role,
    projects?: string[] | null,
  ): Promise<Member>;
  /** `org`'s members (404 unknown) */
  membersOf(org: string | number): Promise<Member[]>;
  /** as setMember, by the instance (no role needed; the last owner still stays one) */
  setMemberOf(org: string | number, user: string | number, change: MemberChange): Promise<Member>;
  /** as removeMember, by the instance */
  removeFrom(org: string | number, user: string | number): Promise<void>;
  /**
   * sets the quotas given (null clears one; undefined keeps it); 422 naming a field that is not
   * a whole number from 1. Recorded in the audit log.
   */
  setQuotas(org: string | number, change: Partial<Quotas>): Promise<Quotas>;
}
