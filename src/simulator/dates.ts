/**
 * Dates as the simulated portal stores and prints them.
 *
 * Stored: epoch seconds (a number), so filters compare instants and a take costs 8 bytes per date.
 * Printed: ISO 8601 with an explicit offset and second precision, e.g. `2026-03-05T10:22:13+00:00`.
 * A share of records print in a non-UTC offset, because a real portal prints its server's local
 * time and a client must normalise to UTC rather than trust the wall-clock text.
 */
import { deriveSeed } from "./prng.js";

export const MINUTE = 60;
export const HOUR = 3_600;
export const DAY = 86_400;

/** Offsets in minutes; UTC dominates, the rest make sure clients honour the offset. */
const OFFSETS = [0, 0, 0, 0, 0, 0, 60, 120, -300, 330] as const;

/** The offset (minutes) a record prints its dates in; stable for a resource and id. */
export function offsetFor(resourceSalt: number, id: number): number {
  return OFFSETS[deriveSeed(resourceSalt, id) % OFFSETS.length] ?? 0;
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

const suffixes = new Map<number, string>();
function suffixOf(offsetMinutes: number): string {
  let suffix = suffixes.get(offsetMinutes);
  if (suffix === undefined) {
    const abs = Math.abs(offsetMinutes);
    suffix = `${offsetMinutes < 0 ? "-" : "+"}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
    suffixes.set(offsetMinutes, suffix);
  }
  return suffix;
}

/**
 * A year as ISO 8601 writes it: four digits at least, so that a date an edit set before the year
 * 1000 (`0100-06-15`, an "unset" `0001-01-01`) reads back as the date it is, not `100-06-15`.
 */
function yearText(year: number): string {
  const digits = String(Math.abs(year)).padStart(4, "0");
  return year < 0 ? `-${digits}` : digits;
}

/**
 * Epoch seconds printed as ISO 8601 in the given offset, e.g. `2026-03-05T12:22:13+02:00`.
 * Calendar arithmetic by hand (days to civil date, as in H. Hinnant's algorithm) because this
 * runs for every date of every record served, and a Date plus toISOString costs several times more.
 */
export function formatDate(seconds: number, offsetMinutes: number): string {
  const local = Math.floor(seconds) + offsetMinutes * MINUTE;
  const days = Math.floor(local / DAY);
  let rest = local - days * DAY;
  const hour = Math.floor(rest / HOUR);
  rest -= hour * HOUR;
  const minute = Math.floor(rest / MINUTE);
  const second = rest - minute * MINUTE;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1_460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${yearText(year)}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}${suffixOf(offsetMinutes)}`;
}

const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Parses a date the client sent (filter value or edit body) into epoch seconds, or undefined when
 * it is not a date. A date-time without an offset is read as UTC (not the server's local time),
 * so the answer does not depend on where the simulator runs.
 */
export function parseDate(text: string): number | undefined {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return undefined;
  const [, day, time, zone] = match;
  let offset = "Z";
  if (zone && zone.toUpperCase() !== "Z") {
    offset = zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  }
  const ms = Date.parse(`${day}T${time ?? "00:00:00"}${offset}`);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

/** The current real time in whole epoch seconds. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
