import { describe, expect, it } from "vitest";
import {
  DEFAULT_MEMORY_LIMIT,
  EXTRACT_MEMORY_LIMIT,
  extractMemoryLimit,
  memoryLimit,
  mergeMemoryLimit,
} from "../../src/load/memory-limit.js";

describe("DuckDB memory ceiling", () => {
  it("defaults to one figure for reports and a lower one for extracts", () => {
    expect(memoryLimit()).toBe(DEFAULT_MEMORY_LIMIT);
    expect(extractMemoryLimit(undefined)).toBe(EXTRACT_MEMORY_LIMIT);
    expect(memoryLimit("  ")).toBe(DEFAULT_MEMORY_LIMIT);
  });

  it("a configured ceiling sets both", () => {
    for (const size of ["2GB", "512MB", "1.5 GiB", "300mb"]) {
      expect(memoryLimit(size)).toBe(size);
      expect(extractMemoryLimit(size)).toBe(size);
    }
  });

  it("gives a merge room for the primary key index of its largest table", () => {
    expect(mergeMemoryLimit(0)).toBe("96MB");
    expect(mergeMemoryLimit(2_000_000)).toBe("96MB");
    expect(mergeMemoryLimit(3_000_000)).toBe("112MB");
    // 64 MB plus 16 bytes a key: 10M keys need 224 MB (measured: they fail under 64 MB).
    expect(mergeMemoryLimit(10_000_000)).toBe("224MB");
    expect(mergeMemoryLimit(10_000_000, "1GB")).toBe("1GB");
  });

  it("never lets what is not a size reach the SET statement", () => {
    for (const bad of ["lots", "2", "1GB'; DROP TABLE take; --", "-5MB"]) {
      expect(() => memoryLimit(bad)).toThrow(/is not a size such as 512MB/);
      expect(() => mergeMemoryLimit(1, bad)).toThrow(/is not a size such as 512MB/);
    }
  });
});
