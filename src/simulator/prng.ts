/**
 * A small seeded pseudo-random generator, so the same seed always yields the same portal.
 *
 * mulberry32: one 32-bit word of state, fast, and good enough for test data (it is not for
 * secrets). Sub-generators are derived with `deriveSeed` so that, e.g., one user's takes do not
 * depend on how many random numbers another user's records consumed.
 */

/** Mixes 32-bit words into one seed (murmur3's finaliser applied per part). */
export function deriveSeed(...parts: readonly number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h ^= Math.imul(part | 0, 0xcc9e2d51);
    h = Math.imul((h << 15) | (h >>> 17), 0x1b873593);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** A stable 32-bit hash of a string (FNV-1a), for deriving seeds from names. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A seeded stream of numbers with the helpers the generator needs. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error("pick from an empty list");
    return item;
  }

  /** `count` distinct integers of [0, n), in random order (count is clamped to n). */
  sample(n: number, count: number): number[] {
    const chosen = new Set<number>();
    const wanted = Math.min(n, count);
    while (chosen.size < wanted) chosen.add(Math.floor(this.next() * n));
    return [...chosen];
  }
}
