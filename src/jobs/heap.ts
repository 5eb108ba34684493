// The V8 heap's growth of a long-running process: PAGEGRADE_WORKER_HEAP_GROWTH for one that runs
// the job workers, PAGEGRADE_API_HEAP_GROWTH for one that serves the API (docs/scale.md,
// "Sizing"). V8 lets its old generation grow to up to 4 times what the last full collection kept
// before it collects again, and lets it reach a large first limit before its first full
// collection, sized for throughput:
// - the end of a 100,000-page batch keeps ~100 MB (its pages held compact) and makes garbage
//   faster than it keeps anything, so the heap reached 430 MB and the process 600–770 MB before
//   V8 collected (BENCHMARKS.md, "A batch's end within 400 MB");
// - an API process keeps ~60 MB, yet the garbage of its first seconds under load (each request's
//   objects that outlive a young collection while ten are in flight) took its heap to ~180 MB
//   and the process to 250–285 MB before the first full collection (BENCHMARKS.md, "API service
//   memory").
// A smaller growth factor makes V8 collect when the heap has grown by this share over what it
// kept — the same work, more (shorter) full collections — and the memory is really freed, not
// hidden: nothing is collected by hand. Set once, before the work starts; 0 leaves V8's own
// policy. A process that serves the API and runs the workers takes the workers' setting once they
// start (it is set last).
import { setFlagsFromString } from 'node:v8';

/** Sets V8's heap growing factor to 1 + percent/100 (0: V8's own, left as it is). */
export function setHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
