// Share links (docs/teams.md "Share links"): a report, or a project's latest crawl, shown to
// anyone holding the link's token until it expires or is revoked. The token is 256 random bits
// (base64url), stored only as its SHA-256; an expired, revoked or unknown token is the same
// "no such page". Who may make, list and revoke links is the access table's (shares.*); the
// rules here: only a report or project the actor sees, within their organisation.
import { createHash, randomBytes } from 'node:crypto';
import { projectName } from '../../analyzer/url.js';
import { notFound, validationError } from '../../errors.js';
import { withTransaction } from '../../store/database.js';
import { findProject } from '../../store/projects.repository.js';
import { findReportProject } from '../../store/reports.repository.js';
import {
  findShare,
  findShareByHash,
  insertShare,
  listShares,
  revokeShare,
} from '../../store/shares.repository.js';
import { seesProject } from '../access/rules.js';
import { recordChange } from '../shared/audit-log.js';
import type { ServiceContext } from '../shared/context.js';
import type { Actor } from '../accounts/types.js';
import { DEFAULT_SHARE_DAYS, MAX_SHARE_DAYS, type Share, type SharesServices } from './types.js';

const DAY_MS = 86_400_000;
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export function createShareServices(ctx: Pick<ServiceContext, 'db' | 'now'>): SharesServices {
  const { db } = ctx;

  function expiry(days: number | undefined): string {
    const d = days ?? DEFAULT_SHARE_DAYS;
    if (!Number.isInteger(d) || d < 1 || d > MAX_SHARE_DAYS)
      throw validationError({
        expires_in_days: [`The expires_in_days must be a whole number from 1 to ${MAX_SHARE_DAYS}.`],
      });
    return new Date(ctx.now().getTime() + d * DAY_MS).toISOString();
  }

  async function make(
    actor: Actor,
    target: { reportId: number | null; project: string | null },
    expiresAt: string,
  ): Promise<{ share: Share; token: string }> {
    const token = randomBytes(32).toString('base64url');
    const share = await withTransaction(db, async (trx) => {
      const share = await insertShare(trx, {
        orgId: actor.orgId,
        tokenHash: hashOf(token),
        ...target,
        createdBy: actor.memberId,
        createdAt: ctx.now().toISOString(),
        expiresAt,
      });
      await recordChange(trx, ctx.now(), actor.orgId, {
        action: 'share.created',
        target: { type: 'share', id: share.id },
        changes: { report_id: target.reportId, project: target.project, expires_at: expiresAt },
      });
      return share;
    });
    return { share, token };
  }

  const visible = (actor: Actor, s: Share) =>
    actor.projects === null || (s.project !== null && seesProject(actor, s.project));

  return {
    async shareReport(actor, reportId, days) {
      const expiresAt = expiry(days);
      const project = await findReportProject(db, reportId, actor.orgId);
      if (project === null || !seesProject(actor, project)) throw notFound('No such report.');
      return make(actor, { reportId, project: null }, expiresAt);
    },
    async shareProject(actor, name, days) {
      const expiresAt = expiry(days);
      const project = projectName(name);
      if (!seesProject(actor, project) || (await findProject(db, actor.orgId, project)) === null)
        throw notFound('No such project.');
      return make(actor, { reportId: null, project }, expiresAt);
    },
    async list(actor) {
      return (await listShares(db, actor.orgId)).filter((s) => visible(actor, s));
    },
    async revoke(actor, id) {
      const share = await findShare(db, actor.orgId, id);
      if (!share || !visible(actor, share)) throw notFound('No such share link.');
      await withTransaction(db, async (trx) => {
        await revokeShare(trx, actor.orgId, id, ctx.now().toISOString());
        await recordChange(trx, ctx.now(), actor.orgId, {
          action: 'share.revoked',
          target: { type: 'share', id },
        });
      });
      return (await findShare(db, actor.orgId, id))!;
    },
    async open(token) {
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
      const share = await findShareByHash(db, hashOf(token));
      if (!share || share.revokedAt !== null) return null;
      if (Date.parse(share.expiresAt) <= ctx.now().getTime()) return null;
      return share;
    },
  };
}
