// The renderer's settings (rendererFromConfig in index.ts builds them from the configuration).
import type { NetworkPolicy } from './network.js';

export interface RendererOptions {
  executablePath: string;
  /** pages rendered at once (PAGEGRADE_RENDER_CONCURRENCY) */
  concurrency: number;
  /** per page: the whole visit, load to serialised DOM and axe (PAGEGRADE_RENDER_TIMEOUT_MS) */
  timeoutMs: number;
  /** per page: requests made by the page (PAGEGRADE_RENDER_MAX_REQUESTS) */
  maxRequests: number;
  /** per page: bytes received by the page's requests (PAGEGRADE_RENDER_MAX_BYTES) */
  maxBytes: number;
  network: NetworkPolicy;
  userAgent: string;
  /** after load, wait for network idle at most this long (within timeoutMs) */
  idleCapMs?: number;
  /** run axe-core in the page (default true) */
  axe?: boolean;
}
