/**
 * DuckDB's dates and timestamps as text where @duckdb/node-api's own text falls short: it writes
 * the infinite DATE and TIMESTAMP_S/_MS/_NS values as far dates ("5881580-07-11"), and JSON wants
 * instants in ISO 8601 with their `Z`, which JavaScript's Date covers only up to year 275760.
 */
import {
  DuckDBDateValue,
  DuckDBTimestampMillisecondsValue,
  DuckDBTimestampNanosecondsValue,
  DuckDBTimestampSecondsValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  type DuckDBValue,
} from "@duckdb/node-api";

/** Every timestamp kind DuckDB has; TIMESTAMPTZ too is stored as an instant in UTC. */
type TimestampValue =
  | DuckDBTimestampValue
  | DuckDBTimestampTZValue
  | DuckDBTimestampNanosecondsValue
  | DuckDBTimestampMillisecondsValue
  | DuckDBTimestampSecondsValue;

function isTimestamp(value: DuckDBValue): value is TimestampValue {
  return (
    value instanceof DuckDBTimestampValue ||
    value instanceof DuckDBTimestampTZValue ||
    value instanceof DuckDBTimestampNanosecondsValue ||
    value instanceof DuckDBTimestampMillisecondsValue ||
    value instanceof DuckDBTimestampSecondsValue
  );
}

/** The value since the epoch, in whole milliseconds and the digits past them ("456", "456789"). */
function sinceEpoch(value: TimestampValue): { millis: bigint; rest: string } {
  const split = (ticks: bigint, perMilli: bigint, digits: number) => {
    // Floored, so an instant before 1970 keeps a positive part past its millisecond.
    const millis = ticks / perMilli - (ticks % perMilli < 0n ? 1n : 0n);
    return { millis, rest: String(ticks - millis * perMilli).padStart(digits, "0") };
  };
  if (value instanceof DuckDBTimestampNanosecondsValue) return split(value.nanos, 1_000_000n, 6);
  if (value instanceof DuckDBTimestampMillisecondsValue) return { millis: value.millis, rest: "" };
  if (value instanceof DuckDBTimestampSecondsValue) {
    return { millis: value.seconds * 1000n, rest: "" };
  }
  return split(value.micros, 1000n, 3);
}

/** The furthest instant from 1970 a JavaScript Date holds, in milliseconds. */
const DATE_RANGE = 8_640_000_000_000_000n;

/** "infinity" or "-infinity" for DuckDB's infinite dates and timestamps; otherwise undefined. */
export function infinityText(value: DuckDBValue): string | undefined {
  if (!(value instanceof DuckDBDateValue || isTimestamp(value)) || value.isFinite) return undefined;
  const sign = value instanceof DuckDBDateValue ? value.days : sinceEpoch(value).millis;
  return sign < 0 ? "-infinity" : "infinity";
}

/**
 * A timestamp of any kind as ISO 8601 with its `Z`, so a program reading it gets the instant, not
 * a local time: "2026-03-05T10:22:13.000Z", with more digits for the micro- or nanoseconds past
 * the millisecond ("…13.123456Z"). An infinite one is "infinity" or "-infinity"; one past the
 * years a Date holds (DuckDB goes to 294247) is DuckDB's text. Undefined for other values.
 */
export function isoInstant(value: DuckDBValue): string | undefined {
  if (!isTimestamp(value)) return undefined;
  const infinite = infinityText(value);
  if (infinite !== undefined) return infinite;
  const { millis, rest } = sinceEpoch(value);
  if (millis > DATE_RANGE || millis < -DATE_RANGE) return String(value);
  const iso = new Date(Number(millis)).toISOString();
  const past = rest.replace(/(?:000)+$/, "");
  return past === "" ? iso : `${iso.slice(0, -1)}${past}Z`;
}
