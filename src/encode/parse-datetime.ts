/**
 * Strict, allocation-free parser for the date-time strings the portal sends, giving a UTC instant
 * in microseconds since the Unix epoch (what an Arrow microsecond timestamp and a DuckDB TIMESTAMP
 * store).
 *
 * Accepted shapes (the spec only says "ISO 8601"; these cover ISO 8601 and the common SQL-style
 * variant a PHP backend emits):
 * - `YYYY-MM-DD`                                   midnight UTC
 * - `YYYY-MM-DDTHH:MM[:SS[.fraction]]` + offset    offset is `Z`, `±HH:MM`, `±HHMM` or `±HH`
 * - `YYYY-MM-DD HH:MM[:SS[.fraction]]` (+ offset)  space instead of `T`
 *
 * Assumption: a date-time WITHOUT an offset is UTC. The spec shows no zone-less value; reading one
 * as UTC is what the portal's own `+00:00` values suggest, and it is written here so that a portal
 * running on local time shows up as a fixed, documented shift rather than as machine-dependent
 * output (never the local zone of the machine running the export).
 *
 * Fractions beyond microseconds are truncated. Anything else (out-of-range fields, 29 February of
 * a common year, trailing text) is rejected, because a silently "corrected" date is worse than a
 * reject that keeps the raw record.
 */

const SECONDS_PER_DAY = 86_400;
/** |seconds| below this keeps seconds * 1e6 + micros inside Number.MAX_SAFE_INTEGER. */
const SAFE_SECONDS = 9_007_199_253;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** Days in `month` (1-12) of `year`. */
function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** Days from 1970-01-01 to the given proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = month > 2 ? month - 3 : month + 9;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Value of `count` ASCII digits at `at`, or -1 if any of them is not a digit. */
function digits(s: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const c = s.charCodeAt(i) - 48;
    // Written as a negated range so NaN (reading past the end) fails too.
    if (!(c >= 0 && c <= 9)) return -1;
    value = value * 10 + c;
  }
  return value;
}

/**
 * Microseconds since 1970-01-01T00:00:00Z for `text`, or `undefined` when `text` is not one of the
 * accepted shapes. Returns a `number` when the value is a safe integer (years 1685-2255) and a
 * `bigint` outside that range, so the result is always exact.
 */
export function parseDateTimeMicros(text: string): number | bigint | undefined {
  const canonical = parseCanonical(text);
  return canonical === NOT_CANONICAL ? parseAnyShape(text) : canonical;
}

/** Answered by parseCanonical for text of another shape (or outside its years); never a value. */
const NOT_CANONICAL = -0.5;

/**
 * The shape a portal sends for nearly every value, `YYYY-MM-DDTHH:MM:SS` then `Z` or `±HH:MM`,
 * read in one straight pass: a run parses about four of these per take, and this is about a sixth
 * faster than the general reader. Years outside 1900-2199 and every other shape answer
 * NOT_CANONICAL and go to parseAnyShape; the two agree on every value this one accepts.
 */
function parseCanonical(s: string): number | undefined {
  const len = s.length;
  if (len !== 20 && len !== 25) return NOT_CANONICAL;
  // '-' '-' 'T' ':' ':'
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84) {
    return NOT_CANONICAL;
  }
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return NOT_CANONICAL;
  const century = digits(s, 0, 2);
  const yearInCentury = digits(s, 2, 2);
  const year = century * 100 + yearInCentury;
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (century < 19 || century > 21 || (yearInCentury | month | day | hour | minute | second) < 0) {
    return NOT_CANONICAL;
  }
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59)
    return undefined;
  if (day > daysInMonth(year, month)) return undefined;
  let offsetSeconds = 0;
  const zone = s.charCodeAt(19);
  if (len === 20) {
    if (zone !== 90) return NOT_CANONICAL; // 'Z'
  } else {
    // '+' or '-', then HH ':' MM
    if ((zone !== 43 && zone !== 45) || s.charCodeAt(22) !== 58) return NOT_CANONICAL;
    const oh = digits(s, 20, 2);
    const om = digits(s, 23, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59) return undefined;
    offsetSeconds = (oh * 3600 + om * 60) * (zone === 45 ? -1 : 1);
  }
  const days = daysFromCivil(year, month, day);
  return (days * SECONDS_PER_DAY + hour * 3600 + minute * 60 + second - offsetSeconds) * 1_000_000;
}

/** Every accepted shape (see the top of this file). */
function parseAnyShape(text: string): number | bigint | undefined {
  const len = text.length;
  if (len < 10) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return undefined;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return undefined; // '-'
  if (day > daysInMonth(year, month)) return undefined;

  let hour = 0;
  let minute = 0;
  let second = 0;
  let micros = 0;
  let offsetSeconds = 0;
  let at = 10;
  if (at < len) {
    const sep = text.charCodeAt(at);
    if (sep !== 84 && sep !== 116 && sep !== 32) return undefined; // 'T' 't' ' '
    hour = digits(text, at + 1, 2);
    minute = digits(text, at + 4, 2);
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
    if (text.charCodeAt(at + 3) !== 58) return undefined; // ':'
    at += 6;
    if (at < len && text.charCodeAt(at) === 58) {
      second = digits(text, at + 1, 2);
      if (second < 0 || second > 59) return undefined;
      at += 3;
      const dot = text.charCodeAt(at);
      if (at < len && (dot === 46 || dot === 44)) {
        // '.' or ','
        const start = ++at;
        while (at < len && isDigit(text.charCodeAt(at))) at++;
        if (at === start) return undefined;
        micros = fractionMicros(text, start, at);
      }
    }
    if (at < len && text.charCodeAt(at) === 32) at++; // "10:22:13 +02:00"
    const zone = zoneOffsetSeconds(text, at);
    if (zone === undefined) return undefined;
    offsetSeconds = zone;
  }

  const seconds =
    daysFromCivil(year, month, day) * SECONDS_PER_DAY +
    hour * 3600 +
    minute * 60 +
    second -
    offsetSeconds;
  if (seconds > -SAFE_SECONDS && seconds < SAFE_SECONDS) return seconds * 1_000_000 + micros;
  return BigInt(seconds) * 1_000_000n + BigInt(micros);
}

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** The microseconds of the fraction digits `text[start, end)`: digits past the sixth count nothing. */
function fractionMicros(text: string, start: number, end: number): number {
  let micros = 0;
  let scale = 100_000;
  for (let at = start; at < end; at++) {
    micros += (text.charCodeAt(at) - 48) * scale;
    scale = Math.floor(scale / 10);
  }
  return micros;
}

/**
 * The offset from UTC, in seconds, of the zone that `text` ends with from `at`: none (UTC), `Z`,
 * or a sign, two digits of hours and optionally two of minutes, with or without a colon. Undefined
 * when anything else follows.
 */
function zoneOffsetSeconds(text: string, at: number): number | undefined {
  const len = text.length;
  if (at === len) return 0;
  const sign = text.charCodeAt(at);
  if (sign === 90 || sign === 122) return at + 1 === len ? 0 : undefined; // 'Z' 'z'
  if (sign !== 43 && sign !== 45) return undefined; // '+' '-'
  const oh = digits(text, at + 1, 2);
  if (oh < 0 || oh > 23) return undefined;
  let next = at + 3;
  let om = 0;
  if (next < len) {
    if (text.charCodeAt(next) === 58) next++; // ':'
    om = digits(text, next, 2);
    if (om < 0 || om > 59) return undefined;
    next += 2;
  }
  if (next !== len) return undefined;
  return (oh * 3600 + om * 60) * (sign === 45 ? -1 : 1);
}

/** Epoch values below this (1973-03-03 in seconds) are refused: see {@link epochMicros}. */
const MIN_EPOCH = 1e8;
/** Below this, seconds (up to year 5138); from it, milliseconds (from 1973). */
const MILLIS_FROM = 1e11;
const MAX_EPOCH_MILLIS = 1e14;

/**
 * Microseconds for an epoch value sent instead of a date-time text (number or numeric string):
 * seconds below 1e11 (up to year 5138), milliseconds from there (1973 onwards), so the two never
 * overlap for any date a portal stores. Values below 1e8 are refused (undefined): short digit runs
 * are likelier a year or a compact `YYYYMMDD` than a date in 1970, and a reject keeps the raw
 * record. Negative and non-finite values are refused too.
 */
export function epochMicros(value: number): number | undefined {
  if (!Number.isFinite(value) || value < MIN_EPOCH || value >= MAX_EPOCH_MILLIS) return undefined;
  return value < MILLIS_FROM ? Math.round(value * 1_000_000) : Math.round(value * 1_000);
}
