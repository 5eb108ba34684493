// Reset links by email (nodemailer over PAGEGRADE_SMTP_URL). Without SMTP nothing is sent: the
// instance admin makes the link with `pagegrade users reset-link EMAIL`; a link is never logged.
import { createRequire } from 'node:module';
import type NodemailerModule from 'nodemailer';
import type { ServiceContext } from '../shared/context.js';
import type { SignInServices } from './types.js';
import { normalEmail } from './signin.service.js';

export interface MailServices {
  /** true when PAGEGRADE_SMTP_URL is set */
  configured(): boolean;
  /** emails a reset link to this address when a person has it (nothing, and no error, otherwise) */
  sendResetLink(email: string): Promise<void>;
  /** emails an invitation's link (docs/teams.md "Invitations"); false when SMTP is not configured */
  sendInvitation(
    to: string,
    invitation: { url: string; orgName: string; role: string; expiresAt: string },
  ): Promise<boolean>;
}

/** nodemailer, loaded when a first email is sent */
const loadMailer = (): typeof NodemailerModule =>
  createRequire(import.meta.url)('nodemailer') as typeof NodemailerModule;

export function createMailServices(
  ctx: Pick<ServiceContext, 'config'>,
  signin: Pick<SignInServices, 'resetLink'>,
): MailServices {
  const url = ctx.config.smtpUrl ?? null;
  let transport: ReturnType<typeof NodemailerModule.createTransport> | null = null;
  const from = () => ctx.config.smtpFrom ?? 'Pagegrade <pagegrade@localhost>';
  return {
    configured: () => url !== null,
    async sendResetLink(email) {
      if (url === null) return;
      const to = normalEmail(email);
      if (to === null) return;
      const link = await signin.resetLink(to).catch(() => null);
      if (!link) return;
      transport ??= loadMailer().createTransport(url);
      await transport.sendMail({
        from: from(),
        to,
        subject: 'Set a new Pagegrade password',
        text: [
          'Someone (we hope you) asked to set a new password for your Pagegrade account.',
          '',
          `Open this link within one hour to set it (it works once):`,
          link.url,
          '',
          'If it was not you, ignore this email: your password stays as it is.',
        ].join('\n'),
      });
    },
    async sendInvitation(to, inv) {
      if (url === null) return false;
      transport ??= loadMailer().createTransport(url);
      await transport.sendMail({
        from: from(),
        to,
        subject: `You are invited to ${inv.orgName} on Pagegrade`,
        text: [
          `You are invited to join the organization "${inv.orgName}" on Pagegrade as ${inv.role}.`,
          '',
          `Open this link to accept (it works once, until ${inv.expiresAt.slice(0, 10)}):`,
          inv.url,
          '',
          'If you did not expect this invitation, ignore this email.',
        ].join('\n'),
      });
      return true;
    },
  };
}
