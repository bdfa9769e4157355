/**
 * Header names made usable as column names, shared by every command that reads a spreadsheet:
 * `Manager Email` → `manager_email`, `Prénom` → `prenom`, `部署` stays `部署`.
 *
 * Accents are folded (NFKD without combining marks) because the same header is typed with and
 * without them; other scripts are kept, since dropping them would leave nothing.
 */

const COMBINING_MARKS = /\p{M}+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** Lower case, accents folded, camelCase split: the letters and digits a name is made of. */
function words(raw: string): string[] {
  const folded = raw
    .normalize("NFKD")
    .replace(COMBINING_MARKS, "")
    // managerEmail → manager Email; userID → user ID (a run of capitals stays one word).
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
    .toLowerCase();
  return folded.split(NOT_WORD).filter((word) => word !== "");
}

/** snake_case of one header cell; "" when it has no letter or digit. */
export function snakeCase(raw: string): string {
  return words(raw).join("_");
}

/**
 * The key two spellings of one header share: case, spaces, punctuation and accents ignored
 * (`E-mail`, `email`, `EMAIL` → `email`), for matching against a list of aliases.
 */
export function headerKey(raw: string): string {
  return words(raw).join("");
}

/**
 * How long a name made from a header may be, in bytes of UTF-8: PostgreSQL keeps the first 63
 * (NAMEDATALEN - 1) and drops the rest, and a `_2` to `_999` suffix must still fit.
 */
const NAME_BYTES = 63 - 4;

/** `name` cut to at most `bytes` bytes of UTF-8, on a character boundary. */
function cutToBytes(name: string, bytes: number): string {
  let cut = name;
  while (Buffer.byteLength(cut) > bytes) cut = cut.slice(0, -1);
  // A lone high surrogate left by the cut is half a character.
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** The column name a header cell asks for: snake_case cut to NAME_BYTES; "" when it has none. */
export function columnNameOf(raw: string): string {
  return cutToBytes(snakeCase(raw), NAME_BYTES);
}

/**
 * Column names for a whole header, in order: `preset[i]` when given (a name the caller chose, such
 * as an alias's target; presets are assumed distinct), else columnNameOf (so that PostgreSQL
 * keeps every name whole and two long headers stay apart), a header with no letter or digit
 * named `column_N` (its 1-based position), and a name already used, or `reserved`, suffixed `_2`,
 * `_3`, ... (the earlier column keeps it). Every header that can have its own name gets it first,
 * so that a suffixed name never takes one a later header asks for: `portal` (reserved) beside
 * `Portal_2` is `portal_3`, and `Portal_2` stays `portal_2`.
 */
export function uniqueColumnNames(
  raw: readonly string[],
  preset: readonly (string | undefined)[] = [],
  reserved: readonly string[] = [],
): string[] {
  const used = new Set([...reserved, ...preset.filter((name) => name !== undefined)]);
  const asked = raw.map(columnNameOf);
  const names = raw.map((_, index) => preset[index]);
  asked.forEach((name, index) => {
    if (names[index] !== undefined || name === "" || used.has(name)) return;
    names[index] = name;
    used.add(name);
  });
  return names.map((given, index) => {
    if (given !== undefined) return given;
    const base = asked[index] || `column_${index + 1}`;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    return name;
  });
}
