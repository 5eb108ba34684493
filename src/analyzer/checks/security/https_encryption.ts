import type { CheckDefinition } from '../types.js';

const check: CheckDefinition = {
  id: 'https_encryption',
  category: 'security',
  priority: 'high',
  title: 'The page is served over HTTPS',
  failTitle: 'The page is not served over HTTPS',
  howToFix:
    "Serve the site over HTTPS (a free certificate from Let's Encrypt will do) and redirect every http:// URL to its https:// twin with a 301.",
  failsWhen: 'the final URL is not https',
  needsContent: false,
  run(a) {
    if (a.finalUrlParsed.protocol === 'https:') {
      return { passed: true, message: 'The page is served over HTTPS.', value: true };
    }
    return { passed: false, message: `The page is served over plain HTTP (${a.finalUrl}).`, value: false };
  },
};

export default check;
