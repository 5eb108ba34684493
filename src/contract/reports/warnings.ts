// Warnings a write answers with when it did what the contract says but not what the caller
// may have meant — today one: a password sent without privacy 2 is ignored (SPEC: a password
// applies only to privacy 2), and the report is stored without one. The API returns them in
// `warnings` next to `data`; the dashboard avoids the case (a typed password means Password).
import { Type, type Static } from 'typebox';
import { PRIVACY_LABELS } from '../../analyzer/vocabulary.js';

export const Warning = Type.Object(
  {
    code: Type.String({ description: 'A stable code, e.g. `password_ignored`.' }),
    field: Type.String({ description: 'The request field it is about.' }),
    message: Type.String(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        code: 'password_ignored',
        field: 'password',
        message:
          'The password was ignored: a password applies only when privacy is 2 (Password). This report is Public (privacy 0).',
      },
    ],
  },
);
export type Warning = Static<typeof Warning>;

/** The warning for a password that was sent but not applied (the report's privacy is not 2). */
export function passwordWarnings(password: string | null | undefined, privacy: number): Warning[] {
  if (typeof password !== 'string' || password === '' || privacy === 2) return [];
  return [
    {
      code: 'password_ignored',
      field: 'password',
      message: `The password was ignored: a password applies only when privacy is 2 (Password). This report is ${PRIVACY_LABELS[privacy] ?? privacy} (privacy ${privacy}).`,
    },
  ];
}
