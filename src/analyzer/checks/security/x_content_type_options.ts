// X-Content-Type-Options: nosniff stops browsers from guessing a response's type.
import type { CheckDefinition } from '../types.js';
import { clip } from '../types.js';

const check: CheckDefinition = {
  id: 'x_content_type_options',
  category: 'security',
  priority: 'low',
  title: 'MIME sniffing is disabled (X-Content-Type-Options: nosniff)',
  failTitle: 'MIME sniffing is not disabled',
  howToFix:
    'Send "X-Content-Type-Options: nosniff" on every response so browsers do not execute a file whose declared type is not a script or stylesheet.',
  failsWhen: 'the header is missing or not `nosniff`',
  needsContent: false,
  run(a) {
    const raw = a.headers['x-content-type-options'];
    if (raw === undefined) {
      return { passed: false, message: 'The page sends no X-Content-Type-Options header.', value: null };
    }
    // repeated headers are joined with ", "; browsers read the first value
    const first = (raw.split(',')[0] ?? '').trim().toLowerCase();
    if (first === 'nosniff') {
      return { passed: true, message: 'The page sends X-Content-Type-Options: nosniff.', value: raw };
    }
    return {
      passed: false,
      message: `X-Content-Type-Options is "${clip(raw, 60)}"; the only meaningful value is "nosniff".`,
      value: raw,
    };
  },
};

export default check;
