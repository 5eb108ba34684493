// Turning network errors into FetchErrors with sentences people can read (they are shown to
// API users under errors.url and on the CLI).
import { FetchError } from '../types.js';

const DNS_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'ENODATA',
  'ESERVFAIL',
  'ENOTIMP',
  'EREFUSED',
]);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ESOCKETTIMEDOUT',
]);
const TLS_CODES = new Set([
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errCode(err: unknown): string {
  // the most specific code: undici wraps socket errors (UND_ERR_SOCKET) around the system one
  let generic = '';
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (code !== 'UND_ERR_SOCKET' && code !== 'UND_ERR') return code;
      generic ||= code;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return generic;
}

function errMessage(err: unknown): string {
  const cause = err && typeof err === 'object' ? (err as { cause?: unknown }).cause : undefined;
  const inner = cause instanceof Error ? cause : err;
  return inner instanceof Error ? inner.message : String(inner);
}

export const seconds = (ms: number) => {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} second${s === 1 ? '' : 's'}`;
};

export function dnsError(host: string, cause?: unknown): FetchError {
  return new FetchError('dns', `The host ${host} could not be resolved (DNS lookup failed).`, { cause });
}

export function timeoutError(url: string, timeoutMs: number, cause?: unknown): FetchError {
  return new FetchError(
    'timeout',
    `The page at ${url} did not load within ${seconds(timeoutMs)} (the time limit).`,
    {
      cause,
    },
  );
}

export function blockedError(host: string, ip: string, reason: string): FetchError {
  const subject = host === ip ? `The address ${ip} is` : `The host ${host} resolves to ${ip},`;
  return new FetchError(
    'blocked_address',
    `${subject} ${reason}; Pagegrade does not fetch private or reserved addresses. For intranet use, set PAGEGRADE_ALLOW_PRIVATE_HOSTS=1 where Pagegrade runs.`,
  );
}

function tlsReason(code: string, host: string, err: unknown): string {
  switch (code) {
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
    case 'HOSTNAME_MISMATCH':
      return `the certificate is not valid for ${host}`;
    case 'CERT_HAS_EXPIRED':
      return 'the certificate has expired';
    case 'CERT_NOT_YET_VALID':
      return 'the certificate is not valid yet';
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
      return 'the certificate is self-signed and not trusted';
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return 'the certificate chain is incomplete or not trusted';
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
      return 'the server did not answer with TLS (is it plain HTTP on this port?)';
    default:
      return errMessage(err).replace(/\.$/, '');
  }
}

/** Maps any error thrown while fetching `url` to a FetchError (FetchErrors pass through). */
export function toFetchError(err: unknown, url: string, timeoutMs: number): FetchError {
  if (err instanceof FetchError) return err;
  const u = new URL(url);
  const host = u.hostname;
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  const code = errCode(err);
  const name = err instanceof Error ? err.name : '';
  if (DNS_CODES.has(code)) return dnsError(host, err);
  if (code === 'ECONNREFUSED') {
    return new FetchError('refused', `The server at ${host} refused the connection on port ${port}.`, {
      cause: err,
    });
  }
  if (TIMEOUT_CODES.has(code) || name === 'AbortError' || name === 'TimeoutError' || code === 'ABORT_ERR') {
    return timeoutError(url, timeoutMs, err);
  }
  if (
    TLS_CODES.has(code) ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_TLS_') ||
    /SSL|TLS|certificate/i.test(errMessage(err))
  ) {
    return new FetchError(
      'tls',
      `The secure (TLS) connection to ${host} failed: ${tlsReason(code, host, err)}.`,
      {
        cause: err,
      },
    );
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new FetchError(
      'connection',
      `The host ${host} is unreachable from the server running Pagegrade.`,
      {
        cause: err,
      },
    );
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED' || code === 'UND_ERR_SOCKET') {
    return new FetchError(
      'connection',
      `The connection to ${host} was closed before the page was received.`,
      {
        cause: err,
      },
    );
  }
  const msg = errMessage(err).replace(/\.$/, '');
  return new FetchError('connection', `The page at ${url} could not be fetched: ${msg}.`, { cause: err });
}
