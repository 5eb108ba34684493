// The extraction worker's thread (started by extract-pool.ts, never imported): it runs a page's
// extractors one after the other and says when each starts and what it found, so that the
// thread that sent the page can stop it when one runs past its time (docs/sites.md, "Custom
// extraction": "The time bound").
//
// Messages in: {id, html, extractors}. Out: {ready} once loaded; then {id, start: -1} before
// the page's DOM is built (when a css or xpath extractor needs it), per extractor {id, start: i}
// before it runs and {id, done: i, values} after; {id, end: true} at the end.
import { parentPort } from 'node:worker_threads';
import { ExtractionPage, type Extractor } from '../../crawl/extract.js';

export interface ExtractJob {
  id: number;
  html: string;
  /** the extractors to run, with their index in the page's list */
  extractors: { i: number; extractor: Extractor }[];
}

export type ExtractMessage =
  | { ready: true }
  | { id: number; start: number }
  | { id: number; done: number; values: string[] }
  | { id: number; end: true };

const port = parentPort;
if (port) {
  const post = (m: ExtractMessage) => port.postMessage(m);
  port.on('message', (job: ExtractJob) => {
    const page = new ExtractionPage(job.html);
    post({ id: job.id, start: -1 });
    page.prepare(job.extractors.map((x) => x.extractor));
    for (const { i, extractor } of job.extractors) {
      post({ id: job.id, start: i });
      post({ id: job.id, done: i, values: page.values(extractor) });
    }
    post({ id: job.id, end: true });
  });
  post({ ready: true });
}
