// Per-user branding of the PDF reports (docs/rendering.md, "Branded PDFs"): a name, a logo
// (PNG, JPEG or SVG, at most 256 KB, stored in the database), an accent colour, a contact line
// and an optional "prepared for" line. The API (PUT /api/v1/account/branding) and the
// dashboard's form share these rules and their messages. An SVG logo is only ever shown as an
// <img> from a data: URL (never inlined), so its scripts never run.
import { withTransaction } from '../../store/database.js';
import { diffFields, recordChange } from '../shared/audit-log.js';
import { forbidden, notFound, validationError, type FieldErrors } from '../../errors.js';
import {
  deleteBranding,
  deleteProjectBranding,
  findBranding,
  findBrandingsOfReport,
  findProjectBranding,
  saveBranding,
  saveProjectBranding,
  type BrandingRow,
  type BrandingValues,
} from '../../store/branding.repository.js';
import { findProject } from '../../store/projects.repository.js';
import { projectName } from '../../analyzer/url.js';
import { actorOf, requireScope } from '../access/actor.js';
import type { ServiceContext } from '../shared/context.js';
import type { Actor } from '../accounts/types.js';
import {
  ACCENT_FORMAT,
  LOGO_TYPES,
  MAX_LOGO_BYTES,
  TEXT_LIMITS,
  type Branding,
  type BrandingInput,
  type BrandingServices,
  type LogoType,
} from './types.js';

/** The largest logo, decoded (named in the error). */

export const EMPTY_BRANDING: Branding = {
  name: null,
  accentColor: null,
  contact: null,
  preparedFor: null,
  logo: null,
  updatedAt: null,
};

const kb = (n: number) => `${Math.ceil(n / 1024)} KB`;

/** The image type of these bytes by their signature (never by what the sender claims), or null. */
export function sniffLogo(bytes: Buffer): LogoType | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head))
    return 'image/svg+xml';
  return null;
}

const TYPE_MESSAGE =
  'The logo must be a PNG, JPEG or SVG image (a data: URL such as data:image/png;base64,…, or base64).';

/** A logo as sent → its type and canonical base64, or the field's error message. */
export function parseLogo(value: string): { type: LogoType; data: string; bytes: number } | string {
  const text = value.trim();
  let declared: string | null = null;
  let b64 = text;
  if (/^data:/i.test(text)) {
    const m = /^data:([^;,]*)((?:;[^;,]*)*),([\s\S]*)$/i.exec(text);
    if (!m) return TYPE_MESSAGE;
    declared = m[1]!.trim().toLowerCase();
    if (!/;base64/i.test(m[2]!)) return 'The logo must be base64-encoded (a data: URL with ;base64).';
    b64 = m[3]!;
  }
  b64 = b64.replace(/\s+/g, '');
  if (b64 === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 === 1) return TYPE_MESSAGE;
  // the size before decoding too: a huge body is refused without decoding it
  const size = Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
  if (size > MAX_LOGO_BYTES) return `The logo must be at most 256 KB; this one is ${kb(size)}.`;
  if (declared !== null && declared !== '' && !(LOGO_TYPES as readonly string[]).includes(declared))
    return `${TYPE_MESSAGE.replace(/\.$/, '')}; ${declared} is not one of them.`;
  const bytes = Buffer.from(b64, 'base64');
  const type = sniffLogo(bytes);
  if (type === null) return TYPE_MESSAGE;
  if (declared && declared !== type) return `The logo is said to be ${declared}, but its data is ${type}.`;
  return { type, data: bytes.toString('base64'), bytes: bytes.length };
}

function present(row: BrandingRow | null): Branding {
  if (!row) return EMPTY_BRANDING;
  const type = row.logoType as LogoType | null;
  return {
    name: row.name,
    accentColor: row.accentColor,
    contact: row.contact,
    preparedFor: row.preparedFor,
    logo:
      type && row.logoData
        ? {
            type,
            bytes: Buffer.byteLength(row.logoData, 'base64'),
            dataUrl: `data:${type};base64,${row.logoData}`,
          }
        : null,
    updatedAt: row.updatedAt,
  };
}

/** '' and null clear; other text is trimmed (line breaks become spaces) and limited. */
function text(
  errors: FieldErrors,
  field: keyof typeof TEXT_LIMITS,
  value: string | null | undefined,
  current: string | null,
): string | null {
  if (value === undefined) return current;
  if (value === null) return null;
  const t = value.replace(/[\r\n\t]+/g, ' ').trim();
  if (t === '') return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(t)) {
    errors[field] = [`The ${field} must be plain text on one line.`];
    return current;
  }
  if ([...t].length > TEXT_LIMITS[field]) {
    errors[field] = [`The ${field} must not be longer than ${TEXT_LIMITS[field]} characters.`];
    return current;
  }
  return t;
}

function requireEveryProject(actor: Actor): void {
  if (actor.projects !== null)
    throw forbidden(
      `Forbidden: this API key is limited to projects (${actor.projects.join(', ')}); branding belongs to the account and needs a key for every project.`,
    );
}

/**
 * A change checked against the stored row (a field left out keeps it): the values to store, or
 * 422 naming each field.
 */
function validated(input: BrandingInput, row: BrandingRow | null): BrandingValues {
  const errors: FieldErrors = {};
  const values: BrandingValues = {
    name: text(errors, 'name', input.name, row?.name ?? null),
    contact: text(errors, 'contact', input.contact, row?.contact ?? null),
    preparedFor: text(errors, 'prepared_for', input.preparedFor, row?.preparedFor ?? null),
    accentColor: row?.accentColor ?? null,
    logoType: row?.logoType ?? null,
    logoData: row?.logoData ?? null,
  };
  if (input.accentColor !== undefined) {
    const c = (input.accentColor ?? '').trim();
    if (c === '') values.accentColor = null;
    else if (/^#[0-9a-f]{6}$/i.test(c)) values.accentColor = c.toLowerCase();
    else errors.accent_color = [`The accent_color must be a colour in the form ${ACCENT_FORMAT}.`];
  }
  if (input.logo !== undefined) {
    if (input.logo === null || input.logo.trim() === '') {
      values.logoType = null;
      values.logoData = null;
    } else {
      const logo = parseLogo(input.logo);
      if (typeof logo === 'string') errors.logo = [logo];
      else {
        values.logoType = logo.type;
        values.logoData = logo.data;
      }
    }
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return values;
}

/** A project's branding over the organisation's: each field the project sets replaces the organisation's. */
function overlay(org: Branding, project: Branding): Branding {
  return {
    name: project.name ?? org.name,
    accentColor: project.accentColor ?? org.accentColor,
    contact: project.contact ?? org.contact,
    preparedFor: project.preparedFor ?? org.preparedFor,
    logo: project.logo ?? org.logo,
    updatedAt: project.updatedAt ?? org.updatedAt,
  };
}

export function createBrandingServices(ctx: Pick<ServiceContext, 'db' | 'now'>): BrandingServices {
  const { db } = ctx;

  /** the project's normal name, when it exists in the organisation and the actor sees it (else 404) */
  async function projectOf(actor: Actor, name: string): Promise<string> {
    const project = projectName(name);
    if (
      (actor.projects !== null && !actor.projects.includes(project)) ||
      (await findProject(db, actor.orgId, project)) === null
    )
      throw notFound('No such project.');
    return project;
  }

  return {
    async get(who) {
      const actor = actorOf(who);
      requireScope(actor, 'read');
      requireEveryProject(actor);
      return present(await findBranding(db, actor.orgId));
    },
    async put(who, input) {
      const actor = actorOf(who);
      requireScope(actor, 'write');
      requireEveryProject(actor);
      const row = await findBranding(db, actor.orgId);
      const values = validated(input, row);
      await withTransaction(db, async (trx) => {
        await saveBranding(trx, actor.orgId, values, ctx.now().toISOString());
        const was = {
          name: row?.name ?? null,
          contact: row?.contact ?? null,
          preparedFor: row?.preparedFor ?? null,
          accentColor: row?.accentColor ?? null,
        };
        const changes: Record<string, unknown> = diffFields(was, {
          name: values.name,
          contact: values.contact,
          preparedFor: values.preparedFor,
          accentColor: values.accentColor,
        });
        // the logo: whether one is set, never its bytes
        if ((row?.logoData ?? null) !== values.logoData)
          changes.logo = values.logoData === null ? 'cleared' : 'set';
        await recordChange(trx, ctx.now(), actor.orgId, {
          action: 'branding.changed',
          target: { type: 'branding', id: null },
          changes,
        });
      });
      return present(await findBranding(db, actor.orgId));
    },
    async clear(who) {
      const actor = actorOf(who);
      requireScope(actor, 'write');
      requireEveryProject(actor);
      await withTransaction(db, async (trx) => {
        await deleteBranding(trx, actor.orgId);
        await recordChange(trx, ctx.now(), actor.orgId, {
          action: 'branding.deleted',
          target: { type: 'branding', id: null },
        });
      });
    },
    async getProject(who, name) {
      const actor = actorOf(who);
      requireScope(actor, 'read');
      const project = await projectOf(actor, name);
      return present(await findProjectBranding(db, actor.orgId, project));
    },
    async putProject(who, name, input) {
      const actor = actorOf(who);
      requireScope(actor, 'write');
      const project = await projectOf(actor, name);
      const values = validated(input, await findProjectBranding(db, actor.orgId, project));
      if (!(await saveProjectBranding(db, actor.orgId, project, values, ctx.now().toISOString())))
        throw notFound('No such project.');
      return present(await findProjectBranding(db, actor.orgId, project));
    },
    async clearProject(who, name) {
      const actor = actorOf(who);
      requireScope(actor, 'write');
      await deleteProjectBranding(db, actor.orgId, await projectOf(actor, name));
    },
    async ofReport(reportId) {
      const { org, project } = await findBrandingsOfReport(db, reportId);
      return overlay(present(org), present(project));
    },
  };
}
