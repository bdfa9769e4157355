/**
 * How far V8 lets the JavaScript heap grow past what survived its last full collection, while an
 * extract runs.
 *
 * An extract allocates fast (every answer is parsed into objects that are converted and dropped a
 * moment later) while little stays alive (about 25 MB at any portal size). V8 then lets the old
 * generation grow to up to four times the live size before collecting it, so the heap swung between
 * about 25 and 70-80 MB of mostly garbage. At 1.5 times, measured on 200k and 2M takes, the heap
 * peaks at about 60 MB instead of 100-115 MB and the process 25-60 MB lower, for about 5 % more
 * CPU time (full collections come more often; each has little to mark). Twice (100) saved less
 * memory for the same CPU time.
 *
 * `--heap-growing-percent` is read by V8 at every full collection, so setting it while the process
 * runs takes effect (flags sized when the heap is created, such as the young generation's, would
 * not). It is set back when the last extract in the process ends, so reports that follow in the
 * same process keep V8's default.
 */
import { setFlagsFromString } from "node:v8";

const EXTRACT_HEAP_GROWING_PERCENT = 50;

let holders = 0;

/** Holds the heap's growth low until the answered function is called (once per call). */
export function holdHeapGrowth(): () => void {
  if (holders++ === 0) setFlagsFromString(`--heap-growing-percent=${EXTRACT_HEAP_GROWING_PERCENT}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // 0 is V8's default: its own heuristic picks the factor again.
    if (--holders === 0) setFlagsFromString("--heap-growing-percent=0");
  };
}
