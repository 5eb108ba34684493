import { listDetails, type CheckDefinition } from '../types.js';

/** headers that name the server software; a digit in the value means a version is given away */
const SIGNATURE_HEADERS = [
  'server',
  'x-powered-by',
  'x-aspnet-version',
  'x-aspnetmvc-version',
  'x-generator',
  'x-runtime-version',
];

const check: CheckDefinition = {
  id: 'server_signature',
  category: 'security',
  priority: 'medium',
  title: 'The server does not reveal its software versions',
  failTitle: 'The server reveals its software versions',
  howToFix:
    'Hide version numbers from response headers: server_tokens off; in nginx, ServerTokens Prod in Apache, expose_php = Off in PHP, and remove X-Powered-By / X-AspNet-Version.',
  failsWhen:
    '`Server`, `X-Powered-By`, `X-Generator` or `X-Runtime-Version` contains a digit (a version), or `X-AspNet-Version` / `X-AspNetMvc-Version` is present',
  needsContent: false,
  run(a) {
    const leaks: string[] = [];
    for (const name of SIGNATURE_HEADERS) {
      const v = a.headers[name];
      if (v === undefined) continue;
      if (/\d/.test(v) || name === 'x-aspnet-version' || name === 'x-aspnetmvc-version')
        leaks.push(`${name}: ${v}`);
    }
    if (leaks.length === 0) {
      const server = a.headers.server;
      return {
        passed: true,
        message: server
          ? `The Server header ("${server}") names no version.`
          : 'No header names the server software with a version.',
        value: null,
      };
    }
    return {
      passed: false,
      message: `The response names software versions: ${leaks.join('; ')}.`,
      value: leaks,
      details: listDetails(leaks),
    };
  },
};

export default check;
