// What the API (src/http/routes/batches.ts) and the dashboard (src/pages/routes/batches.ts)
// both send for a batch outside a JSON envelope: the exports (CSV, JSON) as attachments, and
// the Server-Sent Events stream of its progress. Access is decided before (the services).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { batchCsv, batchJson } from '../contract/batches/export.js';
import type { BatchServices } from '../services/batches/batches.service.js';
import { presentBatch, presentSummary } from '../contract/batches/present.js';

export type BatchResults = Awaited<ReturnType<BatchServices['results']>>;

/** `format=csv`: one row per page; `json`: the batch, summary, findings and pages. */
export function sendBatchExport(
  reply: FastifyReply,
  format: 'csv' | 'json',
  { batch, pages, findings }: BatchResults,
  publicUrl: string,
  headers: Record<string, string> = {},
): FastifyReply {
  const name = `batch-${batch.id}`;
  reply.hijack();
  if (format === 'csv') {
    reply.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}.csv"`,
    });
    batchCsv(pages).pipe(reply.raw);
    return reply;
  }
  const body = batchJson(
    presentBatch(batch, publicUrl),
    batch.summary ? presentSummary(batch.summary) : null,
    findings,
    pages,
  );
  reply.raw.writeHead(200, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="${name}.json"`,
  });
  reply.raw.end(JSON.stringify(body));
  return reply;
}

/** How often an events stream looks at its batch (it may be worked by another process). */
const EVENTS_POLL_MS = 500;

/** One look at the batch: its event data, and whether it has finished; null when it is gone. */
export type ProgressProbe = () => Promise<{ data: string; done: boolean } | null>;

/**
 * Server-Sent Events: `event: progress` with `probe()`'s data now and whenever it changes
 * (looked at every 500 ms: the batch may be worked by another process), a comment every 15 s
 * to keep proxies from closing the stream, then `event: end` once it has finished. Ends when
 * the client goes away or the batch is deleted.
 */
export async function streamProgress(
  request: FastifyRequest,
  reply: FastifyReply,
  probe: ProgressProbe,
  headers: Record<string, string> = {},
): Promise<FastifyReply> {
  let last = await probe();
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let closed = false;
  request.raw.on('close', () => (closed = true));
  const send = (event: string, data: string) => res.write(`event: ${event}\ndata: ${data}\n\n`);
  if (last) send('progress', last.data);
  let beat = Date.now();
  while (!closed && last) {
    if (last.done) {
      send('end', last.data);
      break;
    }
    await new Promise((r) => setTimeout(r, EVENTS_POLL_MS));
    let next: Awaited<ReturnType<ProgressProbe>>;
    try {
      next = await probe();
    } catch {
      break;
    }
    if (next === null) break; // deleted meanwhile
    if (next.data !== last.data) {
      last = next;
      send('progress', next.data);
    } else if (Date.now() - beat > 15_000) {
      res.write(': keep-alive\n\n');
      beat = Date.now();
    }
  }
  res.end();
  return reply;
}
