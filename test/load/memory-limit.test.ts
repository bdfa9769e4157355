import { describe, expect, it } from "vitest";
import {
  DEFAULT_MEMORY_LIMIT,
  EXTRACT_MEMORY_LIMIT,
  extractMemoryLimit,
  memoryLimit,
  mergeMemoryLimit,
  reportMemoryLimit,
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

  it("sizes a report's ceiling to its data, never past what DuckDB itself would take", () => {
    // The cap a 4 GB machine gives: 80% of it, DuckDB's own default there.
    const cap = 3_200_000_000;
    expect(reportMemoryLimit(0, cap)).toBe("256MB");
    expect(reportMemoryLimit(300_000, cap)).toBe("454MB");
    // 3M access records would ask for 3,964 MB, more than the machine holds.
    expect(reportMemoryLimit(3_000_000, cap)).toBe("3200MB");
    // A process allowed less than 256 MB keeps the 256 MB reports always had.
    expect(reportMemoryLimit(300_000, 200_000_000)).toBe("256MB");
  });

  it("never lets what is not a size reach the SET statement", () => {
    for (const bad of ["lots", "2", "1GB'; DROP TABLE take; --", "-5MB"]) {
      expect(() => memoryLimit(bad)).toThrow(/is not a size such as 512MB/);
      expect(() => mergeMemoryLimit(1, bad)).toThrow(/is not a size such as 512MB/);
    }
  });
});
