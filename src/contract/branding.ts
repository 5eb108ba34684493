// TypeBox schemas of the branding endpoints' answers (the request: src/web/branding-requests.ts).
import { Type, type TSchema } from 'typebox';
import { withExample } from './common.js';

export { PutBrandingBody } from '../web/branding-requests.js';

const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

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
          type: Type.String({ enum: ['image/png', 'image/jpeg', 'image/svg+xml'] }),
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
