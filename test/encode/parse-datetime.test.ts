import { describe, expect, it } from "vitest";
import { parseDateTimeMicros } from "../../src/encode/parse-datetime.js";

const micros = (iso: string) => Date.parse(iso) * 1000;

describe("parseDateTimeMicros", () => {
  it("normalises offsets to UTC", () => {
    expect(parseDateTimeMicros("2026-03-05T10:22:13+00:00")).toBe(micros("2026-03-05T10:22:13Z"));
    expect(parseDateTimeMicros("2026-03-05T10:22:13+02:00")).toBe(micros("2026-03-05T08:22:13Z"));
    expect(parseDateTimeMicros("2026-03-05T01:00:00-05:30")).toBe(micros("2026-03-05T06:30:00Z"));
    expect(parseDateTimeMicros("2026-03-05T10:22:13+0200")).toBe(micros("2026-03-05T08:22:13Z"));
    expect(parseDateTimeMicros("2026-03-05T10:22:13+02")).toBe(micros("2026-03-05T08:22:13Z"));
    expect(parseDateTimeMicros("2026-03-05T10:22:13Z")).toBe(micros("2026-03-05T10:22:13Z"));
    // An offset that moves the instant across midnight, month and year.
    expect(parseDateTimeMicros("2026-01-01T00:30:00+01:00")).toBe(micros("2025-12-31T23:30:00Z"));
  });

  it("reads zone-less and SQL-style values as UTC", () => {
    expect(parseDateTimeMicros("2026-03-05 10:22:13")).toBe(micros("2026-03-05T10:22:13Z"));
    expect(parseDateTimeMicros("2026-03-05T10:22:13")).toBe(micros("2026-03-05T10:22:13Z"));
    expect(parseDateTimeMicros("2026-03-05 10:22")).toBe(micros("2026-03-05T10:22:00Z"));
    expect(parseDateTimeMicros("2026-03-05")).toBe(micros("2026-03-05T00:00:00Z"));
    expect(parseDateTimeMicros("2026-03-05 10:22:13 +02:00")).toBe(micros("2026-03-05T08:22:13Z"));
  });

  it("keeps fractions to the microsecond and truncates beyond", () => {
    const base = micros("2026-03-05T10:22:13Z");
    expect(parseDateTimeMicros("2026-03-05T10:22:13.5Z")).toBe(base + 500_000);
    expect(parseDateTimeMicros("2026-03-05T10:22:13.123456Z")).toBe(base + 123_456);
    expect(parseDateTimeMicros("2026-03-05T10:22:13.1234569Z")).toBe(base + 123_456);
    expect(parseDateTimeMicros("2026-03-05T10:22:13,25+00:00")).toBe(base + 250_000);
  });

  it("handles leap days and dates far from the epoch exactly", () => {
    expect(parseDateTimeMicros("2024-02-29T12:00:00Z")).toBe(micros("2024-02-29T12:00:00Z"));
    expect(parseDateTimeMicros("2000-02-29")).toBe(micros("2000-02-29T00:00:00Z"));
    expect(parseDateTimeMicros("1969-12-31T23:59:59Z")).toBe(-1_000_000);
    expect(parseDateTimeMicros("1900-01-01T00:00:00Z")).toBe(micros("1900-01-01T00:00:00Z"));
    // Beyond the safe-integer range of microseconds the answer is an exact bigint.
    expect(parseDateTimeMicros("9999-12-31T23:59:59.999999Z")).toBe(
      BigInt(Date.parse("9999-12-31T23:59:59Z")) * 1000n + 999_999n,
    );
    expect(parseDateTimeMicros("0001-01-01T00:00:00Z")).toBe(
      BigInt(Date.parse("0001-01-01T00:00:00Z")) * 1000n,
    );
  });

  it("agrees with Date.parse on a sweep of instants and offsets", () => {
    for (let i = 0; i < 500; i++) {
      const ms = Math.floor(-2e12 + i * 1.3e10);
      const iso = new Date(ms).toISOString().slice(0, 19);
      const offset = i % 3 === 0 ? "Z" : i % 3 === 1 ? "+05:45" : "-11:00";
      expect(parseDateTimeMicros(`${iso}${offset}`)).toBe(Date.parse(`${iso}${offset}`) * 1000);
    }
  });

  it.each([
    "",
    "2026",
    "2026-3-5",
    "2026-13-01",
    "2026-00-10",
    "2026-02-29",
    "2026-04-31",
    "2026-03-05T24:00:00Z",
    "2026-03-05T10:60:00Z",
    "2026-03-05T10:22:61Z",
    "2026-03-05T10:22:13+24:00",
    "2026-03-05T10:22:13.Z",
    "2026-03-05T10:22:13 UTC",
    "2026-03-05T10:22:13Zjunk",
    "2026-03-05T",
    "2026-03-05T10",
    "2026/03/05 10:22:13",
    "05/03/2026",
    "yesterday",
  ])("rejects %j", (text) => {
    expect(parseDateTimeMicros(text)).toBeUndefined();
  });

  it("reads the common shape (Z or ±HH:MM, seconds, no fraction) exactly, 1890 to 2210", () => {
    const offsets = ["Z", "+00:00", "+02:00", "+05:30", "-04:00", "-12:45", "+23:59"];
    const from = Date.UTC(1890, 0, 1);
    const to = Date.UTC(2210, 11, 31);
    // A step that is not a whole number of days or hours, so every field varies.
    const step = 86_400_000 * 13 + 3_600_000 * 7 + 60_000 * 11 + 37_000;
    let checked = 0;
    for (let at = from, i = 0; at < to; at += step, i++) {
      const text = new Date(at).toISOString().slice(0, 19) + offsets[i % offsets.length];
      expect(parseDateTimeMicros(text), text).toBe(Date.parse(text) * 1000);
      checked++;
    }
    expect(checked).toBeGreaterThan(8000);
    for (const text of [
      "2100-02-29T00:00:00Z",
      "2024-04-31T00:00:00+00:00",
      "2024-04-30T24:00:00Z",
      "2024-04-30T23:59:60Z",
      "2024-04-30T23:59:59+24:00",
      "2024-04-30T23:59:59+02:60",
      "20a4-04-30T23:59:59Z",
      "2024-04-30T23:59:59*02:00",
    ]) {
      expect(parseDateTimeMicros(text), text).toBeUndefined();
    }
    expect(parseDateTimeMicros("2000-02-29T12:00:00-01:30")).toBe(
      Date.parse("2000-02-29T13:30:00Z") * 1000,
    );
  });
});
