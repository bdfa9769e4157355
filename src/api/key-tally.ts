/**
 * The offset pass's exactness check: the keys its pages carried, counted without holding a Set
 * of them, so a listing knows whether it received every record once.
 */
import { keyOf } from "./key-ranges.js";

/**
 * The keys an offset pass received: how many distinct, how many twice. A key received twice
 * means the list moved under the pages, so some other record was skipped.
 */
export class KeyTally {
  // Keys in a typed array, sorted once at the end: a Set of every key of a 100,000-record list
  // held about five times the memory, and the check only needs the totals.
  private keys = new Float64Array(64);
  private size = 0;
  private keyless = 0;
  private sorted: { distinct: number; repeats: number } | undefined;

  constructor(private readonly key: string) {}

  count(records: readonly unknown[]): void {
    for (const record of records) {
      const k = keyOf(record, this.key);
      if (k === undefined) {
        this.keyless += 1;
        continue;
      }
      if (this.size === this.keys.length) {
        const bigger = new Float64Array(this.keys.length * 2);
        bigger.set(this.keys);
        this.keys = bigger;
      }
      this.keys[this.size++] = k;
    }
    this.sorted = undefined;
  }

  private tally(): { distinct: number; repeats: number } {
    if (this.sorted) return this.sorted;
    const keys = this.keys.subarray(0, this.size).sort();
    let distinct = 0;
    for (let i = 0; i < keys.length; i++) if (i === 0 || keys[i] !== keys[i - 1]) distinct += 1;
    this.sorted = { distinct, repeats: keys.length - distinct };
    return this.sorted;
  }

  get distinct(): number {
    return this.tally().distinct;
  }

  get repeats(): number {
    return this.tally().repeats;
  }

  /** Whether the pass received exactly `expected` distinct keys, none twice. */
  settled(expected: number): boolean {
    const { distinct, repeats } = this.tally();
    // Records without an integer key are the loader's to reject; they still count as received.
    return repeats === 0 && distinct + this.keyless === expected;
  }

  all(): Iterable<number> {
    return this.keys.subarray(0, this.size);
  }
}
