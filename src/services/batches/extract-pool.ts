// Custom extraction with a time bound (docs/sites.md, "Custom extraction": "The time bound").
// css-select and the `xpath` library run synchronously and cannot be interrupted: an expression
// such as `//*[count(//*) > 0]` is quadratic in the page's elements and, on a big page, would
// hold the thread for minutes. So a batch page's extractors run in a worker thread
// (extract-worker.ts): one per process, started the first time a page has extractors, kept
// for the next pages, unref'd while it has nothing to do (it never keeps a process alive). Each
// extractor of a page has `timeoutMs` to run; one that runs past it stops the worker
// (Worker.terminate: V8 stops the thread's JavaScript wherever it is), its value is null and
// `errors[name]` says so; a new worker takes the page's next extractors. Pages wait in line for
// the worker, one at a time (the timer of a page starts when the worker starts it).
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { DEFAULT_EXTRACT_TIMEOUT_MS } from '../../crawl/defaults.js';
import { keptValue, type Extracted, type Extractor } from '../../crawl/extract.js';
import type { ExtractJob, ExtractMessage } from './extract-worker.js';

/** a new worker has this long to load its modules (tsx compiling them, a loaded machine) */
const STARTUP_MS = 60_000;
/**
 * building a page's DOM and its XPath copy (linear in the page, whose size the fetch caps) is
 * not counted in an extractor's time; it has this long, a safety net
 */
const DOM_MS = 60_000;
/** the step the worker is at: -1 builds the DOM, i ≥ 0 runs extractor i */
const DOM_STEP = -1;

export interface ExtractOutcome {
  values: Extracted;
  /** extractor name → why it has no value (it ran out of time, the worker stopped) */
  errors: Record<string, string>;
}

/**
 * Where the worker's module is: beside this one in src/ (TypeScript, through tsx) and in
 * dist/services/batches/ (tsc's output); a CLI bundle (dist/bundle/*.cjs, scripts/build.mjs)
 * holds this module but not the worker's, which it takes from dist/services/batches/.
 */
function workerSource(): { url: URL; typescript: boolean } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return { url: new URL('./extract-worker.ts', here), typescript: true };
  if (here.endsWith('.cjs'))
    return { url: new URL('../services/batches/extract-worker.js', here), typescript: false };
  return { url: new URL('./extract-worker.js', here), typescript: false };
}

/**
 * The process's node options, which a worker takes on, but `--input-type` (a script given with
 * `node --input-type=module -e`): a worker started from a file refuses it.
 */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i]!.startsWith('--input-type')) {
      if (argv[i] === '--input-type') i++;
      continue;
    }
    out.push(argv[i]!);
  }
  return out;
}

function startWorker(): Worker {
  const { url, typescript } = workerSource();
  if (!typescript) return new Worker(url, { execArgv: workerExecArgv() });
  // from the sources: a worker has no TypeScript loader of its own (tsx's is not passed on to
  // worker threads), so it registers tsx's, then imports the module
  const req = createRequire(import.meta.url);
  const api = pathToFileURL(
    req.resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs'),
  );
  return new Worker(
    `import(${JSON.stringify(api.href)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); });`,
    { eval: true },
  );
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;
const kindOf = (e: Extractor) => (e.css !== undefined ? 'css' : e.xpath !== undefined ? 'xpath' : 'regex');

interface Pending {
  html: string;
  extractors: readonly Extractor[];
  timeoutMs: number;
  resolve: (o: ExtractOutcome) => void;
}

/** The process's extraction worker and the pages waiting for it. */
class ExtractionPool {
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private readonly queue: Pending[] = [];
  private busy = false;
  private nextId = 1;
  /** workers started (the first and each one after a stop): for the tests */
  started = 0;

  run(html: string, extractors: readonly Extractor[], timeoutMs: number): Promise<ExtractOutcome> {
    return new Promise((resolve) => {
      this.queue.push({ html, extractors, timeoutMs, resolve });
      void this.pump();
    });
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    const next = this.queue.shift();
    if (!next) return;
    this.busy = true;
    try {
      next.resolve(await this.page(next));
    } finally {
      this.busy = false;
      if (this.queue.length === 0) this.worker?.unref();
      void this.pump();
    }
  }

  /** A worker that has loaded its modules (the one kept, or a new one). */
  private get(): Promise<Worker> {
    if (this.ready) return this.ready;
    this.started++;
    const w = startWorker();
    this.worker = w;
    // a worker's error is taken by the page it was working on (send); one that exits is not kept
    w.on('error', () => undefined);
    w.once('exit', () => {
      if (this.worker === w) {
        this.worker = null;
        this.ready = null;
      }
    });
    const ready = new Promise<Worker>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`it did not start within ${seconds(STARTUP_MS)}`)),
        STARTUP_MS,
      );
      const done = (err?: Error) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', done);
        w.off('exit', onExit);
        if (err) reject(err);
        else resolve(w);
      };
      const onMessage = (m: ExtractMessage) => {
        if ('ready' in m) done();
      };
      const onExit = (code: number) => done(new Error(`it exited with code ${code} as it started`));
      w.on('message', onMessage);
      w.once('error', done);
      w.once('exit', onExit);
    });
    // a worker that fails to start is not kept: the next page tries a new one
    ready.catch(() => this.drop(w));
    this.ready = ready;
    return ready;
  }

  /** Stops a worker and forgets it (the next page starts another). */
  private drop(w: Worker): void {
    if (this.worker === w) {
      this.worker = null;
      this.ready = null;
    }
    void w.terminate();
  }

  /** One page: its extractors through the worker, a new one after an extractor that ran out of time. */
  private async page(p: Pending): Promise<ExtractOutcome> {
    const values: Extracted = {};
    const errors: Record<string, string> = {};
    let left = p.extractors.map((extractor, i) => ({ i, extractor }));
    while (left.length > 0) {
      let w: Worker;
      try {
        w = await this.get();
      } catch (err) {
        const why = `The extraction worker could not start: ${err instanceof Error ? err.message : String(err)}.`;
        for (const { extractor } of left) {
          values[extractor.name] = null;
          errors[extractor.name] = why;
        }
        break;
      }
      // a worker that exited since (its exit not yet seen): another one
      if (w.threadId === -1) {
        this.drop(w);
        continue;
      }
      w.ref();
      const stopped = await this.send(
        w,
        { id: this.nextId++, html: p.html, extractors: left },
        p.timeoutMs,
        values,
      );
      if (stopped === null) break;
      if (stopped.at === DOM_STEP) {
        // the DOM could not be built: no css or xpath extractor can run on the page
        for (const { extractor: e } of left)
          if (e.regex === undefined) {
            values[e.name] = null;
            errors[e.name] = stopped.why(e);
          }
        left = left.filter((x) => x.extractor.regex !== undefined);
        continue;
      }
      const e = p.extractors[stopped.at]!;
      values[e.name] = null;
      errors[e.name] = stopped.why(e);
      left = left.filter((x) => x.i > stopped.at);
    }
    // in the extractors' order
    const ordered: Extracted = {};
    for (const e of p.extractors) ordered[e.name] = values[e.name] ?? null;
    return { values: ordered, errors };
  }

  /**
   * Sends a page's extractors to the worker and takes their values as they come. Null when all
   * ran; else the extractor that was running when the worker was stopped (out of time) or
   * stopped by itself (an error, out of memory), and why.
   */
  private send(
    w: Worker,
    job: ExtractJob,
    timeoutMs: number,
    values: Extracted,
  ): Promise<{ at: number; why: (e: Extractor) => string } | null> {
    return new Promise((resolve) => {
      let at = DOM_STEP;
      let timer: NodeJS.Timeout | undefined;
      const finish = (r: { at: number; why: (e: Extractor) => string } | null) => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        resolve(r);
      };
      const arm = () => {
        clearTimeout(timer);
        const dom = at === DOM_STEP;
        timer = setTimeout(
          () => {
            this.drop(w);
            finish({
              at,
              why: (e) =>
                dom
                  ? `Timed out: the page's DOM was not built within ${seconds(DOM_MS)}, so the ${kindOf(e)} extractor "${e.name}" did not run.`
                  : `Timed out: the ${kindOf(e)} extractor "${e.name}" ran longer than ${seconds(timeoutMs)} on this page (PAGEGRADE_EXTRACT_TIMEOUT_MS) and was stopped.`,
            });
          },
          dom ? DOM_MS : timeoutMs,
        );
      };
      const onMessage = (m: ExtractMessage) => {
        if ('ready' in m || m.id !== job.id) return;
        if ('start' in m) {
          at = m.start;
          arm();
        } else if ('done' in m) {
          const e = job.extractors.find((x) => x.i === m.done)!.extractor;
          values[e.name] = keptValue(e, m.values);
        } else finish(null);
      };
      let failure: Error | null = null;
      const onError = (err: Error) => {
        failure = err;
      };
      const onExit = () => {
        this.drop(w);
        const why = failure?.message ?? 'the worker exited';
        finish({
          at,
          why: (e) =>
            at === DOM_STEP
              ? `The page's DOM could not be built (${why}), so the ${kindOf(e)} extractor "${e.name}" did not run.`
              : `The ${kindOf(e)} extractor "${e.name}" stopped the extraction: ${why}.`,
        });
      };
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      // until the worker says it started (it is loaded: at once)
      arm();
      w.postMessage(job);
    });
  }
}

let pool: ExtractionPool | null = null;

/**
 * A page's values for each extractor (checked by checkExtractors), each given at most
 * `timeoutMs` in the process's extraction worker.
 */
export function extractBounded(
  html: string,
  extractors: readonly Extractor[],
  timeoutMs = DEFAULT_EXTRACT_TIMEOUT_MS,
): Promise<ExtractOutcome> {
  if (extractors.length === 0) return Promise.resolve({ values: {}, errors: {} });
  return (pool ??= new ExtractionPool()).run(html, extractors, timeoutMs);
}

/** How many workers this process has started (the tests: a stop starts a new one). */
export const extractionWorkersStarted = (): number => pool?.started ?? 0;
