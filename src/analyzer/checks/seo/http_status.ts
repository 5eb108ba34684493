// The page itself answered with an error status (4xx/5xx): search engines drop such pages.
import type { CheckDefinition } from '../types.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  410: 'Gone',
  429: 'Too Many Requests',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function statusLabel(status: number): string {
  const r = REASONS[status];
  return r === undefined ? String(status) : `${status} ${r}`;
}

const check: CheckDefinition = {
  id: 'http_status',
  category: 'seo',
  priority: 'high',
  title: 'The page answers with a success status',
  failTitle: 'The page answers with an error status',
  howToFix:
    'Serve the page with a 200 status. If it moved, redirect it permanently (301/308) to its new address; if it is gone, remove the links that point to it.',
  failsWhen: "the page's final status is 4xx/5xx (or a 1xx/3xx final answer)",
  needsContent: false,
  run(a) {
    const s = a.status;
    if (s >= 200 && s < 300) {
      return { passed: true, message: `The page answered ${statusLabel(s)}.`, value: s };
    }
    if (s >= 400) {
      const kind = s >= 500 ? 'a server error' : 'a client error';
      let message = `The page answered ${statusLabel(s)}, ${kind}: search engines do not index pages with a 4xx or 5xx status.`;
      if (a.blocked)
        message += ` It may be blocking automated visitors (${a.blocked.reason}); check what real visitors get.`;
      return { passed: false, message, value: s };
    }
    // 1xx or an unfollowed 3xx as the final answer
    return {
      passed: false,
      message: `The page's final answer was ${statusLabel(s)}, not a page: ${s >= 300 ? 'a redirect without a usable Location header' : 'an informational status'}.`,
      value: s,
    };
  },
};

export default check;
