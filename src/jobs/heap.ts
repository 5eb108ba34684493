// The V8 heap's growth in a process that runs the job workers (PAGEGRADE_WORKER_HEAP_GROWTH;
// docs/scale.md, "Sizing"). V8 lets its old generation grow to up to 4 times what
// the last full collection kept before it collects again, sized for throughput: the end of a
// 100,000-page batch keeps ~100 MB (its pages held compact) and makes garbage faster than it
// keeps anything, so the heap reached 430 MB and the process 600–770 MB before V8 collected
// (BENCHMARKS.md, "A batch's end within 400 MB"). A smaller growth factor makes V8 collect when
// the heap has grown by this share over what it kept — the same work, more (shorter) full
// collections — and the memory is really freed, not hidden: nothing is collected by hand.
// Set once when the process starts its workers, before the jobs run; 0 leaves V8's own policy.
import { setFlagsFromString } from 'node:v8';

/** Sets V8's heap growing factor to 1 + percent/100 (0: V8's own, left as it is). */
export function setWorkerHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
