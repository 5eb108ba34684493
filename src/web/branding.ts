// Branding as the API (PUT /api/v1/account/branding) and the dashboard's form both read it:
// the validated body as the branding service's input.
import type { PutBrandingBody } from '../contract/branding.js';
import type { BrandingInput } from '../services/branding/types.js';

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
