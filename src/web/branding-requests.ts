// The branding form's fields, as the API (PUT /api/v1/account/branding) and the dashboard's
// form (/dashboard/branding) send them. The rules and their messages are the service's
// (src/services/branding/branding.service.ts): the schema only names the fields.
import { Type, type Static } from 'typebox';
import type { BrandingInput } from '../services/branding/types.js';

const text = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Null()], { description }));

export const PutBrandingBody = Type.Object(
  {
    name: text('The name on the cover and in the footer (at most 100 characters). Empty or null clears it.'),
    accent_color: text('The accent colour, #rrggbb (such as #1d4ed8). Empty or null clears it.'),
    contact: text(
      'A contact line on the cover, e.g. an email address or phone number (at most 200 characters).',
    ),
    prepared_for: text(
      'An optional "prepared for" line on the cover, e.g. the client\'s name (at most 200 characters).',
    ),
    logo: text(
      'The logo: a PNG, JPEG or SVG image of at most 256 KB, as a data: URL (`data:image/png;base64,…`) or base64. Empty or null removes it. The type is read from the image itself.',
    ),
  },
  { description: 'Fields left out stay as they are.' },
);
export type PutBrandingBody = Static<typeof PutBrandingBody>;

/** The body as the service's input (only the fields sent). */
export function brandingInputOf(body: PutBrandingBody): BrandingInput {
  const out: BrandingInput = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.accent_color !== undefined) out.accentColor = body.accent_color;
  if (body.contact !== undefined) out.contact = body.contact;
  if (body.prepared_for !== undefined) out.preparedFor = body.prepared_for;
  if (body.logo !== undefined) out.logo = body.logo;
  return out;
}
