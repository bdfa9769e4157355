/**
 * What touching a page the process has not used costs on this machine: the price of memory
 * returned to the system and taken back. On an ordinary machine it is about a microsecond; in a
 * virtual machine whose host takes freed memory back (a Firecracker guest reporting free pages,
 * as this project's benchmark machine is) it was 12.5 µs, and an extract whose allocator returns
 * every freed page at once (src/load/duckdb-allocator.ts) pays it tens of thousands of times.
 * The benchmark prints it beside the extract's figures so that they can be read.
 */

const PAGE = 4096;
/** Above glibc's largest mmap threshold (32 MiB): every buffer is fresh pages of its own. */
const BUFFER = 64 * 1024 * 1024;

/** Microseconds per first touch of a fresh page: the median of `rounds` buffers. */
export function pageFaultMicros(rounds = 5): number {
  const each: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const buffer = Buffer.allocUnsafeSlow(BUFFER);
    const started = process.hrtime.bigint();
    for (let at = 0; at < BUFFER; at += PAGE) buffer[at] = 1;
    each.push(Number(process.hrtime.bigint() - started) / 1000 / (BUFFER / PAGE));
  }
  return each.sort((a, b) => a - b)[Math.floor(rounds / 2)] ?? Number.NaN;
}
