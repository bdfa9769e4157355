/**
 * A number flag outside its setting's range, said with the text typed: `--rate 1e400` arrives as
 * Infinity, which the settings' own check (src/config/validate.ts) can only show as a number,
 * and `--rate 1e12` as 1000000000000. Checked here, where the command line is at hand, in the
 * words of that check.
 */

import { FIELD_NAMES, FIELD_SCHEMAS, FIELDS } from "../config/fields.js";
import { flagValue } from "../config/flag-values.js";
import { typedTexts } from "./typed-flag-text.js";

/**
 * Contract: `option --NAME must be EXPECTED (got TYPED)` for the first number flag in `parsed`
 * whose value its setting refuses; undefined when there is none. A value that is not a number
 * at all is notANumberLine's.
 */
export function numberFlagLine(
  parsed: Readonly<Record<string, unknown>>,
  argv: readonly string[],
): string | undefined {
  for (const field of FIELD_NAMES) {
    const { kind, flag, expected } = FIELDS[field];
    const value = flagValue(parsed, flag);
    if (kind !== "number" || typeof value !== "number" || Number.isNaN(value)) continue;
    if (FIELD_SCHEMAS[field].safeParse(value).success) continue;
    return `option --${flag} must be ${expected} (got ${typedTexts(flag, argv).at(-1) ?? String(value)})`;
  }
  return undefined;
}
