// The invitations feature's types (docs/teams.md "Invitations"): an admin or owner invites an
// email address with a role (a viewer optionally limited to projects); the link, signed by its
// unguessable token and kept only as its SHA-256, expires and works once.
import type { Actor, Role } from '../accounts/types.js';
import type { NewSession } from '../signin/types.js';
export type { InvitationRow as Invitation } from '../../store/invitations.repository.js';
import type { InvitationRow as Invitation } from '../../store/invitations.repository.js';

/** Days an invitation lasts. */
export const INVITATION_DAYS = 7;

/** What a token opens: the invitation and whether it can still be accepted. */
export interface InvitationState {
  invitation: Invitation;
  state: 'ok' | 'accepted' | 'revoked' | 'expired';
  /** whether a person already has the invited email (then they sign in to accept) */
  personExists: boolean;
}

export interface InvitationServices {
  /**
   * A new invitation (a pending one for the same email in the organisation is revoked: the new
   * one replaces it). 422 naming `email`, `role` or `projects`; an existing member is 422
   * `email`; inviting an owner takes an owner (403). Emailed when SMTP is configured.
   */
  create(
    actor: Actor,
    input: { email: string; role: string; projects?: string[] | null | undefined },
  ): Promise<{ invitation: Invitation; url: string; emailed: boolean }>;
  /** the organisation's invitations, newest first, one page */
  list(
    actor: Actor,
    page: { page: number; perPage: number },
  ): Promise<{ items: Invitation[]; total: number }>;
  /** the organisation's pending invitations (the members page) */
  pending(actor: Actor): Promise<Invitation[]>;
  /** revokes a pending invitation (404 for another organisation's or a missing one; 422 when no longer pending) */
  revoke(actor: Actor, id: number): Promise<Invitation>;
  /** what a token opens, or null (unknown) */
  check(token: string): Promise<InvitationState | null>;
  /**
   * Accepts as a new person (no account has the email): makes the person (name, password) and
   * the membership; a new session in the organisation. 422 naming `name` or `password`; null
   * when the invitation can no longer be accepted (nothing changed).
   */
  acceptAsNew(token: string, input: { name: string; password: string }): Promise<NewSession | null>;
  /**
   * Accepts as the signed-in person `userId`, whose email must be the invited one (403 otherwise):
   * adds the membership. Returns the organisation's id, or null when the invitation can no
   * longer be accepted (nothing changed).
   */
  acceptAsPerson(token: string, userId: number): Promise<{ orgId: number; role: Role } | null>;
}
