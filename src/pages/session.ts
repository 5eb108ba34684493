// Cookies of the web pages: the signed-in session, the per-report password pass and the CSRF
// nonce. Values are signed with HMAC-SHA256 (@fastify/cookie's signer) under keys derived
// from the one session secret, so that a value made for one purpose never verifies for another.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'pg_session';
export const CSRF_COOKIE = 'pg_csrf';
export const ACCESS_COOKIE = 'pg_access';
/** the same pass for the report's PDF, /reports/{id}.pdf (a cookie of path /reports/{id} is not sent there) */
export const ACCESS_PDF_COOKIE = 'pg_access_pdf';
/** a single sign-on under way: its state, until the provider's callback (path /login/sso, 10 minutes) */
export const SSO_COOKIE = 'pg_sso';
const SSO_TTL_S = 600;

/** A signed-in session lasts 7 days (and ends earlier at /logout, when its key is revoked, its person disabled…). */
export const SESSION_TTL_S = 7 * 24 * 3600;
/** A password pass lasts 12 hours at most (and is a browser-session cookie). */
export const ACCESS_TTL_S = 12 * 3600;

interface CookieAttributes {
  path: string;
  httpOnly: boolean;
  sameSite: 'lax';
  secure: boolean;
  maxAge?: number;
  expires?: Date;
}

/** Parses a Cookie header (first value of a name wins, as browsers send the most specific path first). */
export function parseCookies(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in out) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      out[name] = decodeURIComponent(value);
    } catch {
      out[name] = value;
    }
  }
  return out;
}

/** A Set-Cookie value; our values are base64url and dots, encoded anyway. */
export function serializeCookie(name: string, value: string, a: CookieAttributes): string {
  let out = `${name}=${encodeURIComponent(value)}; Path=${a.path}`;
  if (a.maxAge !== undefined) out += `; Max-Age=${a.maxAge}`;
  if (a.expires) out += `; Expires=${a.expires.toUTCString()}`;
  if (a.httpOnly) out += '; HttpOnly';
  if (a.secure) out += '; Secure';
  out += '; SameSite=Lax';
  return out;
}

/**
 * The session cookie: the person's id and the session's random id (its SHA-256 is the
 * `sessions` row; src/services/signin). Signed, so that a made-up value is never looked up.
 */
export interface Session {
  userId: number;
  token: string;
}

function derive(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`pagegrade:${purpose}:v1`).digest();
}

export class CookieKit {
  private readonly sessionKey: Buffer;
  private readonly accessKey: Buffer;
  private readonly csrfKey: Buffer;
  private readonly ssoKey: Buffer;

  constructor(
    secret: string,
    /** Secure cookies (when the public URL is https) */
    readonly secure: boolean,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    this.sessionKey = derive(secret, 'session');
    this.accessKey = derive(secret, 'report-access');
    this.csrfKey = derive(secret, 'csrf');
    this.ssoKey = derive(secret, 'sso');
  }

  cookies(request: FastifyRequest): Record<string, string> {
    const header = request.headers.cookie;
    if (!header) return {};
    return parseCookies(header);
  }

  private set(reply: FastifyReply, name: string, value: string, path: string, maxAge?: number): void {
    reply.header(
      'set-cookie',
      serializeCookie(name, value, {
        path,
        httpOnly: true,
        sameSite: 'lax',
        secure: this.secure,
        ...(maxAge !== undefined ? { maxAge } : {}),
      }),
    );
  }

  private clear(reply: FastifyReply, name: string, path: string): void {
    reply.header(
      'set-cookie',
      serializeCookie(name, '', {
        path,
        httpOnly: true,
        sameSite: 'lax',
        secure: this.secure,
        maxAge: 0,
        expires: new Date(0),
      }),
    );
  }

  private unsign(value: string | undefined, key: Buffer): string | null {
    if (!value) return null;
    const r = fastifyCookie.unsign(value, key);
    return r.valid && r.value !== null ? r.value : null;
  }

  // --- session -------------------------------------------------------------------------

  /** The signed session in the request (whether it still holds is the services' decision). */
  readSession(request: FastifyRequest): Session | null {
    const value = this.unsign(this.cookies(request)[SESSION_COOKIE], this.sessionKey);
    const m = value === null ? null : /^s2\.(\d{1,15})\.([\w-]{20,100})$/.exec(value);
    return m ? { userId: Number(m[1]), token: m[2]! } : null;
  }

  /** A new session's cookie (the id is always a new one: src/services/signin opens a new row). */
  startSession(reply: FastifyReply, userId: number, token: string): void {
    const value = fastifyCookie.sign(`s2.${userId}.${token}`, this.sessionKey);
    this.set(reply, SESSION_COOKIE, value, '/', SESSION_TTL_S);
  }

  endSession(reply: FastifyReply): void {
    this.clear(reply, SESSION_COOKIE, '/');
  }

  // --- a single sign-on under way (src/pages/routes/sso.ts) --------------------------------

  /** the state of the single sign-on this browser started, or null */
  readSso(request: FastifyRequest): string | null {
    const value = this.unsign(this.cookies(request)[SSO_COOKIE], this.ssoKey);
    return value !== null && /^[\w-]{20,200}$/.test(value) ? value : null;
  }

  startSso(reply: FastifyReply, state: string): void {
    this.set(reply, SSO_COOKIE, fastifyCookie.sign(state, this.ssoKey), '/login/sso', SSO_TTL_S);
  }

  endSso(reply: FastifyReply): void {
    this.clear(reply, SSO_COOKIE, '/login/sso');
  }

  // --- password pass for one report ------------------------------------------------------

  /**
   * The pass is bound to the report id and to its `updatedAt` stamp: any change the owner
   * makes (a new password, privacy, a re-run) locks the page again.
   */
  private accessPayload(reportId: number, stamp: string, expiresAt: number): string {
    const digest = createHmac('sha256', this.accessKey)
      .update(`${reportId}|${stamp}`)
      .digest('base64url')
      .slice(0, 22);
    return `a1.${reportId}.${expiresAt}.${digest}`;
  }

  hasAccess(request: FastifyRequest, reportId: number, stamp: string): boolean {
    const jar = this.cookies(request);
    const value = this.unsign(jar[ACCESS_COOKIE] ?? jar[ACCESS_PDF_COOKIE], this.accessKey);
    const m = value === null ? null : /^a1\.(\d{1,15})\.(\d{1,12})\.[\w-]+$/.exec(value);
    if (!m || Number(m[1]) !== reportId || Number(m[2]) <= this.now()) return false;
    return value === this.accessPayload(reportId, stamp, Number(m[2]));
  }

  grantAccess(reply: FastifyReply, reportId: number, stamp: string): void {
    const value = fastifyCookie.sign(
      this.accessPayload(reportId, stamp, this.now() + ACCESS_TTL_S),
      this.accessKey,
    );
    // no Max-Age: a browser-session cookie, scoped to this report's path
    this.set(reply, ACCESS_COOKIE, value, `/reports/${reportId}`);
    this.set(reply, ACCESS_PDF_COOKIE, value, `/reports/${reportId}.pdf`);
  }

  // --- CSRF (signed double submit, bound to the session's user) ----------------------------

  private csrfFor(nonce: string, userId: number | null): string {
    return createHmac('sha256', this.csrfKey)
      .update(`${nonce}|${userId ?? '-'}`)
      .digest('base64url');
  }

  /** The token to put in this response's forms; sets the nonce cookie when the browser has none. */
  csrfToken(request: FastifyRequest, reply: FastifyReply, userId: number | null): string {
    let nonce = this.cookies(request)[CSRF_COOKIE];
    if (!nonce || !/^[\w-]{22,64}$/.test(nonce)) {
      nonce = randomBytes(18).toString('base64url');
      this.set(reply, CSRF_COOKIE, nonce, '/');
      // forms rendered later in this same request reuse it
      request.headers.cookie = `${request.headers.cookie ? `${request.headers.cookie}; ` : ''}${CSRF_COOKIE}=${nonce}`;
    }
    return this.csrfFor(nonce, userId);
  }

  /** true when `token` is the HMAC of the request's nonce cookie (and the signed-in user). */
  checkCsrf(request: FastifyRequest, token: unknown, userId: number | null): boolean {
    const nonce = this.cookies(request)[CSRF_COOKIE];
    if (typeof token !== 'string' || !nonce || !/^[\w-]{22,64}$/.test(nonce)) return false;
    const expected = Buffer.from(this.csrfFor(nonce, userId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
