/**
 * Which roster column a parameter naming one (`manager_column`, `by_column`) means. Roster import
 * matches headers ignoring case, spaces, punctuation and accents (src/tabular/header-names.ts), so
 * users type a column as the file's header shows it (`Manager_Email`, `Site`, `Manager E-mail`);
 * the queries, though, read the column by its exact name and take a missing one as "no value".
 * So a value is matched the way import matches headers, in tiers from the strictest: the exact
 * name, then the name in any case, then the header key; the first tier with exactly one column
 * decides, and one with several is ambiguous (no guess is made between them). Last, a header
 * import reads into a base column (`Status` is user_status, `E-mail` email) names that column.
 */
import { userColumnOfKey } from "../load/user-header-aliases.js";
import { headerKey } from "../tabular/header-names.js";

export type ColumnMatch =
  /** The column named exactly so. */
  | { readonly kind: "exact"; readonly column: string }
  /** The one column the value names in another spelling. */
  | { readonly kind: "folded"; readonly column: string }
  /** Several columns the value names equally well. */
  | { readonly kind: "ambiguous"; readonly columns: readonly string[] }
  | { readonly kind: "none" };

/** Ways of spelling a name, strictest first: a value and a column match when one gives both alike. */
const TIERS: readonly ((name: string) => string)[] = [
  (name) => name.toLowerCase(),
  (name) => headerKey(name),
];

/** The roster column (of `columns`) that `value` names; see the file's note. */
export function matchRosterColumn(value: string, columns: Iterable<string>): ColumnMatch {
  const all = [...columns];
  if (all.includes(value)) return { kind: "exact", column: value };
  for (const spell of TIERS) {
    const key = spell(value);
    if (key === "") continue;
    const found = all.filter((column) => spell(column) === key);
    const [first, ...more] = found;
    if (first !== undefined && more.length === 0) return { kind: "folded", column: first };
    if (first !== undefined) return { kind: "ambiguous", columns: found };
  }
  // Not a fallback header ("Employment Status"): import reads one into user_status only when the
  // file has no Status, and beside one keeps it apart; the match cannot tell which it did.
  const base = userColumnOfKey(headerKey(value));
  return base !== undefined && all.includes(base)
    ? { kind: "folded", column: base }
    : { kind: "none" };
}
