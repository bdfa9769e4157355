/**
 * Which file column feeds which column of the `user` table. Headers are compared by
 * {@link headerKey} (case, spaces, punctuation and accents ignored) against the usual names HR
 * and portal exports give the person fields (src/load/user-header-aliases.ts); every other column
 * is kept under its snake_case name.
 */
import {
  type UserBaseColumn,
  userColumnOfKey,
  userFallbackOfKey,
} from "../load/user-header-aliases.js";
import { columnNameOf, headerKey } from "../tabular/header-names.js";
import { quotedCell } from "../tabular/quoted-cell.js";
import {
  headerSlots,
  NO_RECORDED_COLUMNS,
  type RecordedColumns,
  rosterColumnNames,
} from "./column-names.js";
import type { ColumnRecord } from "./column-record.js";
import { RosterError } from "./errors.js";

/**
 * Names a roster column may not take, for they say where a row comes from: the portal and the
 * day of a lake's folders (`portal=…/snapshot_date=…`, which readers take over the file's own
 * column of that name) and of reports over several portals. A roster column so named becomes
 * `portal_2`, `snapshot_date_2` (or the next suffix free).
 */
const RESERVED_COLUMNS = ["portal", "snapshot_date"];

/** The table column of each file column, in file order, and which of them are extras. */
export interface RosterColumns {
  /** Per file column: the `user` column it fills. */
  readonly names: readonly string[];
  /** Index of the file column holding `user_id`. */
  readonly userIdIndex: number;
  /** Columns that are not base columns, in file order. */
  readonly extras: readonly string[];
  /**
   * Extra columns not under the name their header asks for (a repeat, a reserved name, a header
   * with no letter or digit), in file order: the import says so, as a query would look for the
   * name the header has.
   */
  readonly renamed: readonly { header: string; name: string }[];
  /** The column of each extra header, for the next import to reuse (see column-names.ts). */
  readonly records: readonly ColumnRecord[];
}

/** Whether a header cell names the `user_id` column. */
export function isUserIdHeader(raw: string): boolean {
  return userColumnOfKey(headerKey(raw)) === "user_id";
}

/**
 * Maps a file's header to `user` columns, an extra header to the column `recorded` says an earlier
 * import gave it. Throws `noUserId()` when no column is `user_id` (the caller knows more of the
 * file than its header, to say where the header may be), and RosterError when two columns mean
 * the same base column or a recorded column is another header's own name.
 */
export function planRosterColumns(
  header: readonly string[],
  file: string,
  noUserId: () => RosterError,
  recorded: RecordedColumns = NO_RECORDED_COLUMNS,
): RosterColumns {
  const preset: (UserBaseColumn | undefined)[] = [];
  const seen = new Map<UserBaseColumn, string>();
  header.forEach((raw, index) => {
    const base = userColumnOfKey(headerKey(raw));
    if (base === undefined) return;
    const earlier = seen.get(base);
    if (earlier !== undefined) {
      throw new RosterError(
        `${file}: columns ${quotedCell(earlier)} and ${quotedCell(raw)} both mean ${base}; rename or remove one and import again`,
      );
    }
    seen.set(base, raw);
    preset[index] = base;
  });
  presetFallbacks(header, preset, recorded);
  const userIdIndex = preset.indexOf("user_id");
  if (userIdIndex < 0) throw noUserId();
  const names = rosterColumnNames(header, preset, RESERVED_COLUMNS, recorded, file);
  const extras = names.filter((_, index) => preset[index] === undefined);
  const renamed = names.flatMap((name, index) =>
    preset[index] === undefined && name !== columnNameOf(header[index] ?? "")
      ? [{ header: header[index] ?? "", name }]
      : [],
  );
  const records = headerSlots(header, preset).flatMap((slot, index) =>
    slot === undefined ? [] : [{ ...slot, column: names[index] ?? "" }],
  );
  return { names, userIdIndex, extras, renamed, records };
}

/**
 * Gives a base column the file has no header of its own for the one header that names it as a
 * fallback ("Employment Status" for user_status). Not when two headers could be it (which one
 * is meant cannot be told), nor when an earlier import of the database kept the header as a
 * column of its own: its queries and reports read that column, which must not change meaning.
 */
function presetFallbacks(
  header: readonly string[],
  preset: (UserBaseColumn | undefined)[],
  recorded: RecordedColumns,
): void {
  const candidates = new Map<UserBaseColumn, number[]>();
  header.forEach((raw, index) => {
    const base = userFallbackOfKey(headerKey(raw));
    if (base === undefined || preset.includes(base)) return;
    candidates.set(base, [...(candidates.get(base) ?? []), index]);
  });
  for (const [base, indexes] of candidates) {
    const [index] = indexes;
    if (indexes.length !== 1 || index === undefined) continue;
    if (recorded.columns.has(columnNameOf(header[index] ?? ""))) continue;
    preset[index] = base;
  }
}
