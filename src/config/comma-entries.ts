/**
 * The entries of a comma-separated option (`--only grp,take`, `--format csv,xlsx`), trimmed, the
 * option given once or several times. An empty entry (`grp,,take`, `csv,`) is a typo, not a
 * shorter list: left out, the command ran without whatever was meant to stand there.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { quotedUnlessSecret } from "../text/secret-like.js";

/**
 * Contract: `values` split on commas and trimmed; [] when no entry holds anything (the caller
 * refuses that in its own words); a bad-input naming `option`, the list as typed (a word that may
 * be a password cut, text/secret-like.ts) and the empty entry's place, then `fix`, when some
 * entries are empty and others not.
 */
export function commaEntries(values: unknown, option: string, fix: string): string[] {
  const typed = (Array.isArray(values) ? values : [values]).map(String);
  const entries = typed.flatMap((part) => part.split(",")).map((part) => part.trim());
  if (entries.every((entry) => entry === "")) return [];
  const empty = entries.indexOf("");
  if (empty < 0) return entries;
  throw new LmsExportError(
    "bad-input",
    `${option} ${quotedUnlessSecret(typed.join(","))}: entry ${empty + 1} of ${entries.length} is empty (a comma too many); ${fix}`,
  );
}
