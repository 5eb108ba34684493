// Reading a response body while it streams: bytes on the wire and decoded bytes are counted
// chunk by chunk, and the read stops (destroying the connection) as soon as either passes the
// limit — nothing is buffered first. Content-Encoding (gzip, deflate, br, and zstd where Node
// has it) is decoded on the way.
import { Readable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as zlib from 'node:zlib';

type ZstdFactory = (options?: object) => Duplex;
const createZstd = (zlib as unknown as { createZstdDecompress?: ZstdFactory }).createZstdDecompress;

/** The Accept-Encoding the fetcher sends: only what it can decode. */
export const ACCEPT_ENCODING = createZstd ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br';

const ZLIB_LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

type Stage = Duplex | ((source: AsyncIterable<Buffer>) => AsyncGenerator<Buffer>);

/** "deflate" is meant to be zlib-wrapped, but many servers send raw deflate: look at the first bytes. */
async function* autoInflate(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const head: Buffer = first.value;
  const wrapped = head.length >= 2 && (head[0]! & 0x0f) === 8 && ((head[0]! << 8) | head[1]!) % 31 === 0;
  const z = wrapped ? zlib.createInflate(ZLIB_LENIENT) : zlib.createInflateRaw(ZLIB_LENIENT);
  async function* all(): AsyncGenerator<Buffer> {
    yield head;
    for (;;) {
      const n = await it.next();
      if (n.done) return;
      yield n.value as Buffer;
    }
  }
  const feeding = pipeline(Readable.from(all()), z).catch((err: unknown) => {
    z.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  for await (const chunk of z) yield chunk as Buffer;
  await feeding;
}

/** Decoders for a Content-Encoding value, in application order; null when one is unknown. */
export function decoders(contentEncoding: string | undefined): Stage[] | null {
  if (!contentEncoding) return [];
  const codings = contentEncoding
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c && c !== 'identity');
  const stages: Stage[] = [];
  for (const c of codings.reverse()) {
    if (c === 'gzip' || c === 'x-gzip') stages.push(zlib.createGunzip(ZLIB_LENIENT));
    else if (c === 'deflate') stages.push(autoInflate);
    else if (c === 'br') stages.push(zlib.createBrotliDecompress(BROTLI_LENIENT));
    else if (c === 'zstd' && createZstd) stages.push(createZstd());
    else return null;
  }
  return stages;
}

export class LimitExceeded extends Error {
  constructor(readonly which: 'transfer' | 'decoded') {
    super(`body limit exceeded (${which})`);
  }
}

export interface BodyResult {
  body: Buffer;
  transferBytes: number;
  /** the body was cut at the limit (only when truncate is set) */
  truncated: boolean;
}

/**
 * Reads `source` through the decoders. Over `maxBytes` (on the wire or decoded): with
 * `truncate`, keeps the first `maxBytes` decoded bytes; otherwise throws LimitExceeded.
 */
export async function readBody(
  source: Readable,
  contentEncoding: string | undefined,
  maxBytes: number,
  truncate: boolean,
  signal: AbortSignal,
): Promise<BodyResult> {
  let transferBytes = 0;
  let decodedBytes = 0;
  let truncated = false;
  const chunks: Buffer[] = [];
  // made only when a body is cut: an Error's stack costs every page's read otherwise (a crawl's profile)
  let stop: LimitExceeded | null = null;
  const stages = decoders(contentEncoding) ?? [];

  async function* countWire(src: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
    for await (const chunk of src) {
      transferBytes += chunk.length;
      if (transferBytes > maxBytes && !truncate) throw new LimitExceeded('transfer');
      yield chunk;
    }
  }
  async function collect(src: AsyncIterable<Buffer>): Promise<void> {
    for await (const chunk of src) {
      const room = maxBytes - decodedBytes;
      if (chunk.length > room) {
        if (!truncate) throw new LimitExceeded('decoded');
        if (room > 0) chunks.push(chunk.subarray(0, room));
        decodedBytes = maxBytes;
        truncated = true;
        throw (stop = new LimitExceeded('decoded'));
      }
      decodedBytes += chunk.length;
      chunks.push(chunk);
    }
  }
  try {
    await (pipeline as (...args: unknown[]) => Promise<void>)(source, countWire, ...stages, collect, {
      signal,
    });
  } catch (err) {
    if (stop === null || err !== stop) throw err;
  }
  return { body: Buffer.concat(chunks), transferBytes, truncated };
}
