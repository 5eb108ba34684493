// The branding's contract (GET/PUT/DELETE /api/v1/account/branding; docs/rendering.md,
// "Branded PDFs"): the form's fields as the API and the dashboard send them (the rules and
// their messages are the service's, src/services/branding: the schema only names the fields),
// the answers, the example, the branding as the service gives it and the presenter.
import { Type, type Static } from 'typebox';
import { nullable, withExample } from './common.js';

export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];

// ── request ───────────────────────────────────────────────────────────────────────────

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

// ── answers ───────────────────────────────────────────────────────────────────────────

/** GET/PUT /api/v1/account/branding (the logo: a 1×1 PNG) */
export const branding = {
  name: 'Acme Web Agency',
  accent_color: '#0f766e',
  contact: 'audits@acme.example · +44 20 7946 0000',
  prepared_for: 'Example Ltd',
  logo: {
    type: 'image/png',
    bytes: 70,
    data_url:
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  },
  updated_at: '2026-11-26T09:15:00.000Z',
};

export const Branding = Type.Object(
  {
    name: nullable(Type.String({ description: 'On the cover and in the footer; null: "Pagegrade".' })),
    accent_color: nullable(Type.String({ pattern: '^#[0-9a-f]{6}$', description: '#rrggbb, lower-cased.' })),
    contact: nullable(Type.String()),
    prepared_for: nullable(Type.String()),
    logo: nullable(
      Type.Object(
        {
          type: Type.String({ enum: [...LOGO_TYPES] }),
          bytes: Type.Integer({ minimum: 1, maximum: 262144 }),
          data_url: Type.String({ description: 'The image as a data: URL.' }),
        },
        { additionalProperties: false },
      ),
    ),
    updated_at: nullable(Type.String({ format: 'date-time', description: 'null: never set.' })),
  },
  { additionalProperties: false },
);

export const BrandingEnvelope = withExample(
  Type.Object({ data: Branding }, { additionalProperties: false }),
  { data: branding },
);

export const BrandingDeleted = withExample(
  Type.Object(
    { object: Type.Literal('branding'), deleted: Type.Literal(true) },
    { additionalProperties: false },
  ),
  { object: 'branding', deleted: true },
);

// ── the branding as the service gives it, and as the API shows it ──────────────────────

export interface Branding {
  name: string | null;
  /** #rrggbb, lower-cased */
  accentColor: string | null;
  contact: string | null;
  preparedFor: string | null;
  logo: { type: LogoType; bytes: number; dataUrl: string } | null;
  /** null when the user has never set one */
  updatedAt: string | null;
}

export function presentBranding(b: Branding): Static<typeof Branding> {
  return {
    name: b.name,
    accent_color: b.accentColor,
    contact: b.contact,
    prepared_for: b.preparedFor,
    logo: b.logo ? { type: b.logo.type, bytes: b.logo.bytes, data_url: b.logo.dataUrl } : null,
    updated_at: b.updatedAt,
  };
}
