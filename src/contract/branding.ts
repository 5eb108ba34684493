// TypeBox schemas of the branding endpoints' answers (the request: src/web/branding-requests.ts).
import { Type, type TSchema } from 'typebox';
import * as ex from './reports/examples.js';
import { withExample } from './reports/schemas.js';

export { PutBrandingBody } from '../web/branding-requests.js';

const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);

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
  { data: ex.branding },
);

export const BrandingDeleted = withExample(
  Type.Object(
    { object: Type.Literal('branding'), deleted: Type.Literal(true) },
    { additionalProperties: false },
  ),
  { object: 'branding', deleted: true },
);
