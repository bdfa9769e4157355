/**
 * Portal names go into folder names, Hive partition values and log lines: letters, digits, `_`
 * and `-` only, so a name can never leave its folder or need quoting anywhere.
 */
import { LmsExportError } from "../errors/lms-export-error.js";

export const DEFAULT_PORTAL = "default";

const PORTAL_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** `name` if it is a valid portal name; a bad-input error saying what is allowed otherwise. */
export function checkPortalName(name: string, source = "--portal"): string {
  if (!PORTAL_NAME.test(name)) {
    throw new LmsExportError(
      "bad-input",
      `${source} ${JSON.stringify(name)} is not a portal name: use letters, digits, "_" and "-" (at most 64, starting with a letter or digit)`,
    );
  }
  return name;
}

/** `date` if it is a real YYYY-MM-DD day; a bad-input error otherwise. */
export function checkSnapshotDate(date: string, source = "--snapshot-date"): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(parsed.getTime())) {
    throw new LmsExportError(
      "bad-input",
      `${source} must be a day as YYYY-MM-DD, e.g. 2026-11-23 (got ${date})`,
    );
  }
  if (parsed.toISOString().slice(0, 10) !== date) {
    throw new LmsExportError("bad-input", `${source} ${date} is not a day of the calendar`);
  }
  // A day still to come is a typo: as the newest snapshot it would be what reports read, and with
  // --keep it would drop real days and refuse every correct one after it. Tomorrow is allowed: a
  // day east of UTC may have begun.
  const today = new Date().toISOString().slice(0, 10);
  if (parsed.getTime() > Date.parse(`${today}T00:00:00Z`) + 86_400_000) {
    throw new LmsExportError(
      "bad-input",
      `${source} ${date} is a day still to come (today is ${today} in UTC): a snapshot holds data already extracted; give the day it was taken, or leave the option out for today`,
    );
  }
  return date;
}
