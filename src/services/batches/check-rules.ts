// How a checked URL's answer is judged (docs/sites.md "Links and resources checked"): ok, broken
// (4xx/5xx, no answer), blocked (another site's 429, 403 or 999: it refuses checkers, which says
// nothing of the link; the site's own 429 too) or unchecked (not requested: robots.txt, the
// address guard).
import type { ExtraResource } from '../../analyzer/types.js';
import type { CheckKind, CheckRow } from '../../store/batch-checks.repository.js';

/** a host's robots.txt read for the checks: at most this many bytes */
export const ROBOTS_CAP = 512 * 1024;
/** a stylesheet read for its fonts: at most this many bytes (the rest is not read) */
export const STYLESHEET_CAP = 1024 * 1024;

const BLOCKED_ELSEWHERE = new Set([403, 429, 999]);

export function verdictOf(
  t: { url: string; kind: CheckKind },
  r: Pick<ExtraResource, 'status' | 'finalUrl' | 'error'>,
  otherSite: boolean,
  timeoutMs: number,
): CheckRow {
  const redirectTo = r.finalUrl !== t.url ? r.finalUrl : null;
  if (r.status === null) {
    const error = r.error ?? 'No answer.';
    // a redirect robots.txt keeps the check from following, an address the guard refuses: not requested
    if (/which is not followed/.test(error) || /does not fetch private or reserved addresses/.test(error))
      return { ...t, verdict: 'unchecked', status: null, error: `Not requested: ${error}`, redirectTo: null };
    const message = /time allowance|timed out|TimeoutError/i.test(error)
      ? `No answer within ${timeoutMs / 1000} s.`
      : error;
    return { ...t, verdict: 'broken', status: null, error: message, redirectTo: null };
  }
  const status = r.status;
  if (status === 429 || (otherSite && BLOCKED_ELSEWHERE.has(status)))
    return { ...t, verdict: 'blocked', status, error: null, redirectTo };
  return { ...t, verdict: status >= 400 ? 'broken' : 'ok', status, error: null, redirectTo };
}
