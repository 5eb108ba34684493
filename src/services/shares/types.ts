// The share links feature's types (docs/teams.md "Share links"): a read-only link to a report,
// or to a project's latest crawl, that expires and can be revoked.
import type { Actor } from '../accounts/types.js';
export type { ShareRow as Share } from '../../store/shares.repository.js';
import type { ShareRow as Share } from '../../store/shares.repository.js';

/** Days a link lasts unless told (expires_in_days, 1–90). */
export const DEFAULT_SHARE_DAYS = 7;
export const MAX_SHARE_DAYS = 90;

export interface SharesServices {
  /** a link to a report the actor sees (404 otherwise); the token is shown once */
  shareReport(
    actor: Actor,
    reportId: number,
    expiresInDays?: number,
  ): Promise<{ share: Share; token: string }>;
  /** a link to a project's latest crawl (404 for a project the actor does not see) */
  shareProject(
    actor: Actor,
    project: string,
    expiresInDays?: number,
  ): Promise<{ share: Share; token: string }>;
  /** the organisation's links, newest first (those of the projects the actor sees) */
  list(actor: Actor): Promise<Share[]>;
  /** revokes a link (404 for another organisation's or a missing one) */
  revoke(actor: Actor, id: number): Promise<Share>;
  /** what a token opens: a live link (not revoked, not expired), else null */
  open(token: string): Promise<Share | null>;
}
