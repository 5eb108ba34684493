// What the API (src/http/routes/batches) and the dashboard (src/pages/routes/batches.ts) share
// for a batch: how a create body is read (a form's lists as lines, numbers as digits) and
// handed to the service, and what both send outside a JSON envelope — the exports (CSV, JSON)
// as attachments, and the Server-Sent Events stream of its progress. Access is decided
// before (the services).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { batchCsv, batchJson } from '../contract/batches/export.js';
import { presentBatch, presentSummary } from '../contract/batches/present.js';
import type { CreateBatchBody } from '../contract/batches/requests.js';
import type { Privacy } from '../store/reports.repository.js';
import type { BatchServices, CreateBatchInput } from '../services/batches/types.js';
import { sendCsv } from './csv.js';
import { parseExtractorLine } from '../crawl/extract.js';

/** A validated create body as the batches service takes it (the API's and the dashboard's). */
export function batchInputOf(b: CreateBatchBody): CreateBatchInput {
  return {
    url: b.url,
    mode: b.mode,
    ...(b.urls !== undefined ? { urls: b.urls } : {}),
    ...(b.max_pages !== undefined ? { maxPages: b.max_pages } : {}),
    ...(b.max_depth !== undefined ? { maxDepth: b.max_depth } : {}),
    ...(b.include !== undefined ? { include: b.include } : {}),
    ...(b.exclude !== undefined ? { exclude: b.exclude } : {}),
    ...(b.privacy !== undefined ? { privacy: b.privacy as Privacy } : {}),
    render: b.render === 1,
    ...(b.extractors !== undefined ? { extractors: b.extractors } : {}),
    ...(b.check_external !== undefined ? { checkExternal: b.check_external === 1 } : {}),
    ...(b.max_external_checks !== undefined ? { maxExternalChecks: b.max_external_checks } : {}),
    ...(b.max_site_checks !== undefined ? { maxSiteChecks: b.max_site_checks } : {}),
    ...(b.thin_content_words !== undefined ? { thinContentWords: b.thin_content_words } : {}),
    ...(b.near_duplicate_threshold !== undefined ? { nearDuplicateThreshold: b.near_duplicate_threshold } : {}),
    ...(b.deep_page_depth !== undefined ? { deepPageDepth: b.deep_page_depth } : {}),
  };
}

/** A list field of a form body may be one value, repeated, or lines/commas in one value. */
const splitList = (v: unknown) =>
  v === undefined
    ? undefined
    : (Array.isArray(v) ? v : [v])
        .flatMap((x) => (typeof x === 'string' ? x.split(/[\r\n]+/) : [x]))
        .map((x) => (typeof x === 'string' ? x.trim() : x))
        .filter((x) => x !== '');

/**
 * Reads a form-encoded (or JSON) batch body into the schema's types, in place, before it is
 * validated: the list fields split into lines, the number fields from their digits.
 */
export function normalizeBatchBody(body: unknown): void {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const b = body as Record<string, unknown>;
  for (const k of ['urls', 'include', 'exclude']) if (b[k] !== undefined) b[k] = splitList(b[k]);
  // the form's box: one extractor a line (src/crawl/extract.ts parseExtractorLine)
  if (typeof b['extractors'] === 'string' || (Array.isArray(b['extractors']) && b['extractors'].every((x) => typeof x === 'string')))
    b['extractors'] = (splitList(b['extractors']) as string[]).map(parseExtractorLine);
  for (const k of [
    'max_pages',
    'max_depth',
    'privacy',
    'render',
    'check_external',
    'max_external_checks',
    'max_site_checks',
    'thin_content_words',
    'near_duplicate_threshold',
    'deep_page_depth',
  ])
    if (typeof b[k] === 'string' && /^\d+$/.test(b[k])) b[k] = Number(b[k]);
}

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
  if (format === 'csv') return sendCsv(reply, `${name}.csv`, batchCsv(pages, (batch.options.extractors ?? []).map((e) => e.name)), headers);
  reply.hijack();
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
/** the stream looks again at least this often, whether a change was heard or not */
const EVENTS_FALLBACK_MS = 2_000;

/** One look at the batch: its event data, and whether it has finished; null when it is gone. */
export type ProgressProbe = () => Promise<{ data: string; done: boolean } | null>;

/**
 * Server-Sent Events: `event: progress` with `probe()`'s data now and whenever it changes — looked
 * at when `watch` hears a change (a page done here, or in a worker elsewhere through Redis), and
 * every 2 s in any case (a change missed, another process without Redis) —, a comment every 15 s
 * to keep proxies from closing the stream, then `event: end` once it has finished. Ends when
 * the client goes away or the batch is deleted.
 */
export async function streamProgress(
  request: FastifyRequest,
  reply: FastifyReply,
  probe: ProgressProbe,
  watch: (onChange: () => void) => () => void,
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
  // a change heard wakes the loop at once; changes heard while it looks are not lost
  let wake: (() => void) | null = null;
  let pending = false;
  const unwatch = watch(() => {
    pending = true;
    wake?.();
  });
  request.raw.on('close', () => {
    closed = true;
    wake?.();
  });
  const send = (event: string, data: string) => res.write(`event: ${event}\ndata: ${data}\n\n`);
  if (last) send('progress', last.data);
  let beat = Date.now();
  while (!closed && last) {
    if (last.done) {
      send('end', last.data);
      break;
    }
    if (!pending) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(done, EVENTS_FALLBACK_MS);
        function done() {
          clearTimeout(t);
          wake = null;
          resolve();
        }
        wake = done;
      });
    }
    pending = false;
    if (closed) break;
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
  unwatch();
  res.end();
  return reply;
}
