/**
 * Dates in every form a portal may send them, to the right UTC instant (expected values written
 * by hand as epoch seconds), or refused.
 */
import { describe, expect, it } from "vitest";
import { coerceDateTime } from "../../src/encode/coerce-value.js";
import { toRecordBatch } from "../../src/encode/to-record-batch.js";

const micros = (seconds: number) => seconds * 1_000_000;

describe("coerceDateTime", () => {
  it("reads offsets, space-separated, date-only and epoch forms as the same UTC instants", () => {
    const cases: [unknown, number][] = [
      ["2026-01-02T03:04:05+02:00", 1_767_315_845], // 01:04:05Z
      ["2026-01-02T03:04:05+0200", 1_767_315_845],
      ["2026-01-02T01:04:05Z", 1_767_315_845],
      ["2026-01-01T20:34:05-04:30", 1_767_315_845],
      ["2026-01-02 03:04:05", 1_767_323_045], // no zone: UTC
      ["2026-01-02 03:04:05+00:00", 1_767_323_045],
      ["2026-01-02", 1_767_312_000], // midnight UTC
      [1_767_322_800, 1_767_322_800], // 2026-01-02T03:00:00Z, epoch seconds
      ["1767322800", 1_767_322_800],
      [" 1767322800 ", 1_767_322_800],
      [1_767_322_800_000, 1_767_322_800], // epoch milliseconds
      ["1767223800", 1_767_223_800], // 2025-12-31T23:30:00Z
    ];
    for (const [value, seconds] of cases) {
      expect(coerceDateTime(value), JSON.stringify(value)).toBe(micros(seconds));
    }
    expect(coerceDateTime("1767322800.25")).toBe(micros(1_767_322_800) + 250_000);
  });

  it("reads epoch 0, the zero date and an empty string as no value", () => {
    for (const value of [0, "0", "", "0000-00-00 00:00:00"])
      expect(coerceDateTime(value)).toBeNull();
  });

  it("refuses what it would have to guess", () => {
    for (const value of [
      "20260102", // YYYYMMDD or epoch seconds in 1970?
      2026, // a year
      -1_767_322_800,
      "02/01/2026",
      "2026-02-30",
      "2026-01-02T25:00:00Z",
      "yesterday",
      Number.NaN,
      1e15,
      true,
    ]) {
      expect(coerceDateTime(value), String(value)).toBeUndefined();
    }
  });
});

describe("toRecordBatch with loose values", () => {
  const take = {
    take_id: 1,
    take_product_id: 42,
    take_user_id: 7,
    take_status: "in_progress",
    take_score: 80,
    take_started_date: "2026-01-02T03:04:05+02:00",
    take_completed_date: null,
    take_created_date: "2026-01-02 03:04:05",
    take_updated_date: 1_767_322_800,
  };

  it("gives the same row whatever the order of the keys and with numbers as strings", () => {
    const reversed = Object.fromEntries(Object.entries(take).reverse());
    const strings = Object.fromEntries(
      Object.entries(reversed).map(([k, v]) => [k, typeof v === "number" ? String(v) : v]),
    );
    const [a, b, c] = [take, reversed, strings].map((record) => {
      const { batch, rejects } = toRecordBatch("take", [record]);
      expect(rejects).toEqual([]);
      return batch?.toArray().map((row) => row.toJSON());
    });
    expect(Object.keys(reversed)[0]).toBe("take_updated_date");
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a?.[0]?.take_score).toBe(80n);
  });

  it("keeps a record with an unreadable date aside with a reason naming the field and value", () => {
    const { batch, rejects } = toRecordBatch("take", [
      take,
      { ...take, take_id: 2, take_started_date: "02/01/2026 03:04" },
    ]);
    expect(batch?.numRows).toBe(1);
    expect(rejects).toHaveLength(1);
    expect(rejects[0]?.reason).toBe(
      'field "take_started_date": expected an ISO 8601 date-time or epoch seconds, got "02/01/2026 03:04"',
    );
  });
});
