/**
 * The `user` column of each extra roster header, the same in every import of one database. A
 * header that cannot keep its own name (`Portal`, a reserved name; a repeat) is suffixed, and the
 * suffix free in one file is not free in the next: `Portal` beside `portal_2` is `portal_3`, and
 * alone it would be `portal_2`, so a `--merge` would write sites into a column of codes. Each
 * import therefore records the column of every header (src/roster/column-record.ts), later imports
 * reuse it, and a new suffix skips every column an earlier import recorded: whatever the order of
 * the files, a header lands where it landed first.
 */
import { columnNameOf, headerKey } from "../tabular/header-names.js";
import { quotedCell } from "../tabular/quoted-cell.js";
import { RosterError } from "./errors.js";

/** The columns earlier imports of a database gave their headers. */
export interface RecordedColumns {
  /** Column per header key ({@link headerSlot}). */
  readonly byHeader: ReadonlyMap<string, string>;
  /** Every column recorded, which a new suffix does not take. */
  readonly columns: ReadonlySet<string>;
}

export const NO_RECORDED_COLUMNS: RecordedColumns = { byHeader: new Map(), columns: new Set() };

/**
 * What identifies a header across files: the name it asks for and which of the file's headers
 * asking for that name it is (a second `Dept` is `dept`, 2), not its position, which changes.
 */
export interface HeaderSlot {
  readonly asked: string;
  readonly occurrence: number;
}

export function slotKey(slot: HeaderSlot): string {
  return `${slot.occurrence}:${slot.asked}`;
}

/**
 * The slot of each header without a preset (undefined for presets and for headers with no letter
 * or digit, which are named after their position, `column_N`, as documented).
 */
export function headerSlots(
  header: readonly string[],
  preset: readonly (string | undefined)[],
): (HeaderSlot | undefined)[] {
  const seen = new Map<string, number>();
  return header.map((raw, index) => {
    const asked = columnNameOf(raw);
    if (preset[index] !== undefined || asked === "") return undefined;
    const occurrence = (seen.get(asked) ?? 0) + 1;
    seen.set(asked, occurrence);
    return { asked, occurrence };
  });
}

/** How many words a column name has ("manager_e_mail": 3). */
const words = (column: string) => column.split("_").filter((word) => word !== "").length;

/**
 * Per header, the column an earlier import made under its own name that the header spells
 * otherwise (`Manager E-mail` for the `manager_email` a `Manager Email` made: the same words, see
 * headerKey), when the header itself was never imported, no header of this file asks for that
 * column by name, and the column's name has fewer words than the header's own (the spelling the
 * reports read: `manager_email`, not `manager_e_mail`). A `--merge` from another HR sheet then
 * fills the column the reports read, rather than a second one beside it that none does.
 */
function spelledAsRecorded(
  slots: readonly (HeaderSlot | undefined)[],
  recorded: RecordedColumns,
): (string | undefined)[] {
  const asked = new Set(slots.map((slot) => slot?.asked));
  const own = new Map<string, string>();
  for (const [key, column] of recorded.byHeader) {
    if (key === slotKey({ asked: column, occurrence: 1 })) own.set(headerKey(column), column);
  }
  return slots.map((slot) => {
    if (slot === undefined || slot.occurrence !== 1) return undefined;
    if (recorded.byHeader.has(slotKey(slot))) return undefined;
    const column = own.get(headerKey(slot.asked));
    if (column === undefined || asked.has(column)) return undefined;
    // Only towards the fewer words ("manager_e_mail" into "manager_email", never the reverse): a
    // sheet that spells it as the reports read it keeps its own name after one that did not.
    return words(column) < words(slot.asked) ? column : undefined;
  });
}

/**
 * Column names for a roster header, in order: a column an earlier import made that the header
 * spells otherwise (see spelledAsRecorded), `preset[i]` when given (a base column), a header's
 * own name when free (not reserved, not a preset, not taken by an earlier header asking for it),
 * else the column an earlier import recorded for it, else its name suffixed `_2`, `_3`, ... past
 * every name of this file and every recorded column. Throws RosterError when a recorded column
 * is the own name of another header of the file: either way one of the two would change column.
 */
export function rosterColumnNames(
  header: readonly string[],
  preset: readonly (string | undefined)[],
  reserved: readonly string[],
  recorded: RecordedColumns,
  file: string,
): string[] {
  const slots = headerSlots(header, preset);
  const used = new Set([...reserved, ...preset.filter((name) => name !== undefined)]);
  const names = header.map((_, index) => preset[index]);
  spelledAsRecorded(slots, recorded).forEach((column, index) => {
    if (column === undefined || used.has(column)) return;
    names[index] = column;
    used.add(column);
  });
  slots.forEach((slot, index) => {
    if (names[index] !== undefined) return;
    if (slot === undefined || used.has(slot.asked)) return;
    names[index] = slot.asked;
    used.add(slot.asked);
  });
  slots.forEach((slot, index) => {
    const column = slot === undefined ? undefined : recorded.byHeader.get(slotKey(slot));
    if (names[index] !== undefined || column === undefined) return;
    if (used.has(column)) {
      const other = header[names.indexOf(column)] ?? "";
      throw new RosterError(
        `${file}: column ${quotedCell(header[index] ?? "")} was imported into ${column} before, and column ${quotedCell(other)} names ${column} too; rename one of the two headers and import again`,
      );
    }
    names[index] = column;
    used.add(column);
  });
  return names.map((given, index) => {
    if (given !== undefined) return given;
    const slot = slots[index];
    const base = slot?.asked ?? `column_${index + 1}`;
    // A header with no letter or digit is named after its position, not recorded.
    const taken = (name: string) =>
      used.has(name) || (slot !== undefined && recorded.columns.has(name));
    let name = base;
    for (let n = 2; taken(name); n++) name = `${base}_${n}`;
    used.add(name);
    return name;
  });
}
