import { listDetails, type CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'plaintext_email',
  category: 'security',
  priority: 'low',
  title: 'The page shows no plain-text e-mail addresses',
  failTitle: 'The page shows e-mail addresses in plain text',
  howToFix:
    'Replace plain e-mail addresses (and mailto: links) with a contact form, or obfuscate them, so that spam harvesters cannot collect them.',
  failsWhen:
    'an e-mail address appears in the visible text or in a `mailto:` link (`name@2x.png`-like file names excluded)',
  needsContent: true,
  run(a) {
    if (a.emails.length === 0)
      return { passed: true, message: 'No e-mail address appears in the page.', value: 0 };
    return {
      passed: false,
      message: `The page shows ${a.emails.length} e-mail address${a.emails.length === 1 ? '' : 'es'}: ${a.emails.slice(0, 3).join(', ')}${a.emails.length > 3 ? '…' : ''}.`,
      value: a.emails.length,
      details: listDetails(a.emails),
    };
  },
};

export default check;
