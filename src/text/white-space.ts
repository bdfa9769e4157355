/**
 * The white space around a value that String.prototype.trim() removes, as DuckDB's SQL removes
 * it: the mail split and the roster's shared-address check trim addresses in DuckDB and key them
 * in TypeScript (`normaliseAddress` in src/mail/address.ts), which trims them too, so both must
 * take off the same characters.
 *
 * trim() removes ASCII white space (tab, LF, VT, FF, CR, space), the byte-order mark and every
 * Unicode space and line or paragraph separator. DuckDB's own trim() removes spaces, Unicode's
 * too, but no tab, line break or byte-order mark: a roster's "\tmgr@example.com" was no address to
 * the split, and its rows went to the report's own recipients.
 */

/**
 * What trim() removes, as a class of DuckDB's regular expressions (RE2): `\s` is ASCII's tab, LF,
 * FF, CR and space, then VT, the byte-order mark, and `\p{Z}` every Unicode space and line or
 * paragraph separator (the no-break space among them).
 */
export const SQL_SPACE = "[\\s\\x0B\\x{FEFF}\\p{Z}]";

/** The VARCHAR SQL `expression` with the white space trim() removes taken off both ends. */
export function trimmedSql(expression: string): string {
  return `regexp_replace(${expression}, '^${SQL_SPACE}+|${SQL_SPACE}+$', '', 'g')`;
}
