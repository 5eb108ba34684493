// Conditional GETs under /api/v1: a weak ETag on every 200 JSON answer (reports, lists, runs,
// diffs, projects, webhooks, account), and 304 Not Modified when If-None-Match names it. The
// tag is a hash of the body itself, so it changes exactly when the answer does (a report's
// new settings or results, a list's new member, order or total) — whatever the route.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const etagOf = (body: Buffer) =>
  `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

/** A kept answer: its bytes with the tag made when it was kept (etagOf; the hook below checks it). */
export const sendJsonBytes = (reply: FastifyReply, body: Buffer, etag: string) =>
  reply.type('application/json; charset=utf-8').header('ETag', etag).send(body);

/** true when an If-None-Match header names this tag (weak comparison, RFC 9110 §13.1.2) */
export function matches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.slice(2);
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return (tag.startsWith('W/') ? tag.slice(2) : tag) === opaque;
  });
}

export function registerEtags(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || reply.statusCode !== 200)
      return done(null, payload);
    let body: Buffer;
    let etag: string;
    const tagged = reply.getHeader('etag');
    if (typeof payload === 'string') {
      // the body's bytes, once: hashed, then sent as they are (hashing the string would encode
      // it to UTF-8 inside the hash, and the HTTP write would encode it again)
      body = Buffer.from(payload);
      etag = etagOf(body);
    } else if (Buffer.isBuffer(payload) && typeof tagged === 'string') {
      // a kept answer sent as its bytes with the tag made when it was kept (etagOf, the same)
      body = payload;
      etag = tagged;
    } else return done(null, payload);
    reply.header('ETag', etag);
    reply.header('Cache-Control', 'private, no-cache');
    const inm = request.headers['if-none-match'];
    if (inm !== undefined && matches(inm, etag)) {
      reply.code(304);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      return done(null, '');
    }
    done(null, body);
  });
}
