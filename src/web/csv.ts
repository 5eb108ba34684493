// The one way a CSV is sent, by the API and the dashboard alike: a stream with its type and
// an attachment file name (the reports list's CSV, a batch's export).
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export const CSV_TYPE = 'text/csv; charset=utf-8';

/** Sends `csv` as the attachment `filename` (and any other `headers`); the stream is never serialised. */
export function sendCsv(
  reply: FastifyReply,
  filename: string,
  csv: Readable,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .header('content-type', CSV_TYPE)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .headers(headers)
    .send(csv);
}
