/**
 * E-mail addresses as this tool accepts them: a plain `local@domain`, no display name, no
 * comments, no spaces. Strict on purpose: an address also names a folder of per-recipient files
 * and goes into an SMTP envelope, so anything unusual is refused rather than interpreted.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { trimmedSql } from "../text/white-space.js";

const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** Whether `text` is a plain address `local@domain.tld` (at most 254 characters). */
export function isMailAddress(text: string): boolean {
  if (text.length > 254 || !ADDRESS.test(text)) return false;
  const local = text.slice(0, text.lastIndexOf("@"));
  // A local part with a slash or starting with a dot could name another folder.
  return !local.includes("/") && !local.startsWith(".") && !local.includes("..");
}

/**
 * One form of an address for comparing and grouping: trimmed, lower case. trim() removes ASCII
 * white space (tab, LF, VT, FF, CR, space), the byte-order mark and every Unicode space and line
 * separator; {@link normaliseAddressSql} removes the same in DuckDB (src/text/white-space.ts).
 */
export function normaliseAddress(text: string): string {
  return text.trim().toLowerCase();
}

/** {@link normaliseAddress} in DuckDB's SQL, of the VARCHAR `expression`. */
export function normaliseAddressSql(expression: string): string {
  return `lower(${trimmedSql(expression)})`;
}

/**
 * The addresses of a comma-separated list (or a list of such lists), normalised and without
 * repeats. Contract: a bad-input naming `source` and the first bad address; an empty list is an
 * error too.
 */
export function parseAddressList(values: string | readonly string[], source: string): string[] {
  const parts = addressItems(values, source);
  for (const part of parts) {
    if (!isMailAddress(part)) {
      throw new LmsExportError(
        "bad-input",
        `${source}: ${JSON.stringify(part)} is not an e-mail address; give plain addresses such as compliance@example.com, separated by commas`,
      );
    }
  }
  return [...new Set(parts)];
}

/**
 * The items of a comma-separated list (or a list of such lists), normalised, empty ones left out.
 * Contract: a bad-input naming `source` when none is left.
 */
export function addressItems(values: string | readonly string[], source: string): string[] {
  const parts = (typeof values === "string" ? [values] : values)
    .flatMap((value) => value.split(","))
    .map(normaliseAddress)
    .filter((value) => value !== "");
  if (parts.length === 0) {
    throw new LmsExportError(
      "bad-input",
      `${source} names no address: give one or more, e.g. a@example.com,b@example.com`,
    );
  }
  return parts;
}
