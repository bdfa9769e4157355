/**
 * A change file read and checked whole against the registry, before anything is sent: columns
 * (a misspelt header is an error with the nearest writable field), types, enums, dates, duplicate
 * ids. Uses the tabular readers, so CSV, XLSX, Parquet and JSON lines all work.
 */
import { basename } from "node:path";
import { forEachRow } from "../tabular/checked-rows.js";
import { checkUnchanged, type FileStamp } from "../tabular/file-stamp.js";
import { HIDDEN_ROW_PROBLEM, hiddenColumnProblem } from "../tabular/hidden-cells.js";
import { openTabularFile } from "../tabular/open-tabular.js";
import { quotedCell } from "../tabular/quoted-cell.js";
import { otherSheetWith, tableName } from "../tabular/sheet-read.js";
import type { TabularRow, TabularSource } from "../tabular/types.js";
import { filledCell } from "../text/filled-cell.js";
import { notedCell } from "./cell-notes.js";
import { type CellValue, outOfRangeInt, parseCell, parseIntCell } from "./cell-value.js";
import { closestName } from "./closest-name.js";
import { headerField, headersReadAs } from "./header-field.js";
import {
  HEADER_ROWS_LOOKED_AT,
  headerBelowError,
  headerRowBelow,
  lackedColumns,
} from "./header-place.js";
import type { OpSpec } from "./ops.js";
import { ChangeProblems } from "./problems.js";

/** One row of the file: the record it names and the fields it sets (blank cells left out). */
export interface ChangeRow {
  readonly line: number;
  /** The cells as read, for the results file. */
  readonly values: readonly (string | null)[];
  /** The edited record's id; null for a create. */
  readonly id: number | null;
  /** Field → value to set, in file column order. */
  readonly set: ReadonlyMap<string, CellValue>;
}

export interface ChangeFile {
  /** The file's name as messages show it. */
  readonly file: string;
  readonly sha256: string;
  /** The header as written. */
  readonly columns: readonly string[];
  /** The field (or id) each column names, in column order. */
  readonly names: readonly string[];
  /** The headers read as a field of another name, for the plan to say so. */
  readonly readAs: readonly { header: string; field: string }[];
  readonly unit: "line" | "row";
  /** A CSV's delimiter, which its results file keeps (results-csv.ts); "," for other formats. */
  readonly delimiter: string;
  readonly rows: readonly ChangeRow[];
  /** The file as it was before it was read: sending checks it is still so (file-stamp.ts). */
  readonly stamp: FileStamp | undefined;
}

/** Field name per column (undefined for the id column), after checking the header. */
function mapHeader(source: TabularSource, spec: OpSpec, problems: ChangeProblems): string[] {
  const writable = spec.fields.map((field) => field.name);
  const known = spec.idColumn ? [spec.idColumn, ...writable] : writable;
  // A file with its id column took that name: another column is a field misspelt, not the id.
  const present = new Set(source.columns.map((raw) => headerField(raw, spec)));
  const hinted = spec.idColumn && !present.has(spec.idColumn) ? known : writable;
  const seen = new Map<string, string>();
  let unknown = false;
  const names = source.columns.map((raw) => {
    const name = headerField(raw, spec);
    // Excel saves a CSV with an empty column after the data when a cell there was ever formatted:
    // a column named by nothing sets nothing (its cells are checked to be blank, see readRows).
    if (raw.trim() === "") return name;
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      problems.add(
        "header",
        `columns ${quotedCell(earlier)} and ${quotedCell(raw)} both name ${name}`,
      );
    }
    seen.set(name, raw);
    if (!known.includes(name)) {
      unknown = true;
      const hint = closestName(name, hinted);
      problems.add(
        "header",
        `column ${quotedCell(raw)} is not a writable field of ${spec.resource} for ${spec.op}${hint ? `; did you mean ${hint}?` : ""} (writable: ${writable.join(", ")})`,
      );
    }
    return name;
  });
  // Like a hidden row: a hidden column's values would be sent unseen. One with no header sets
  // nothing, and its cells must be blank (see unnamedCells).
  for (const index of source.hiddenColumns ?? []) {
    const raw = source.columns[index] ?? "";
    if (raw.trim() === "") continue;
    problems.add("header", hiddenColumnProblem(raw, index, "sent"));
  }
  const needed = spec.idColumn ? [spec.idColumn, ...spec.required] : spec.required;
  for (const name of needed) {
    if (!names.includes(name)) problems.add("header", `no ${name} column; ${spec.op} needs one`);
  }
  // Ids alone change nothing: every row would come back "unchanged", the changes perhaps on
  // another sheet. A misspelt column is a problem of its own that names the fields already.
  const sets = names.some((name) => writable.includes(name));
  if (spec.kind === "edit" && !sets && !unknown) {
    problems.add(
      "header",
      `no column of a field to set; ${spec.op} sets ${writable.join(", ")}: add a column named after the field to change`,
    );
  }
  return names;
}

/** The row's id (edits), checked for presence, type and repetition. */
function rowId(
  cell: string | null,
  spec: OpSpec,
  where: string,
  firstLine: Map<string, number>,
  problems: ChangeProblems,
  unit: string,
): number | null | undefined {
  if (!spec.idColumn) return null;
  const text = filledCell(cell);
  if (text === undefined) {
    problems.add(where, `${spec.idColumn} is blank; every row names the record it changes`);
    return undefined;
  }
  const id = parseIntCell(text);
  // Past 2^53 - 1 an id is too large (see intRangeProblem); a negative one is wrong by its sign.
  const range = outOfRangeInt(spec.idColumn, text);
  if (range !== undefined && !text.trim().startsWith("-")) {
    problems.add(where, range);
    return undefined;
  }
  if (id === undefined || id < 1) {
    problems.add(where, `${spec.idColumn} must be a positive integer, got ${quotedCell(text)}`);
    return undefined;
  }
  const earlier = firstLine.get(String(id));
  if (earlier !== undefined) {
    problems.add(where, `${spec.idColumn} ${id} is also on ${unit} ${earlier}`);
    return undefined;
  }
  return id;
}

/**
 * The row's cells as text to read, after what the reader noted of them (see cell-notes.ts): a
 * cell that cannot be read is a problem and is left blank, its column index in `bad`.
 */
function notedTexts(
  row: TabularRow,
  source: TabularSource,
  names: readonly string[],
  spec: OpSpec,
  where: string,
  problems: ChangeProblems,
): { values: (string | null)[]; bad: Set<number> } {
  const bad = new Set<number>();
  const notes = source.notes?.get(row.line);
  const values = row.values.map((text, index) => {
    const note = notes?.get(index);
    if (note === undefined) return text;
    const field = spec.fields.find((f) => f.name === names[index]);
    const cell = notedCell(text, note, source.columns[index] ?? "", field);
    if ("text" in cell) return cell.text;
    problems.add(where, cell.problem);
    bad.add(index);
    return null;
  });
  return { values, bad };
}

function readRow(
  values: readonly (string | null)[],
  names: readonly string[],
  spec: OpSpec,
  where: string,
  problems: ChangeProblems,
): Map<string, CellValue> | undefined {
  const set = new Map<string, CellValue>();
  let ok = true;
  names.forEach((name, index) => {
    const field = spec.fields.find((f) => f.name === name);
    // A cell of spaces shows blank in a sheet, and a row of them is a blank row (csv-reader.ts):
    // it leaves the field too (filled-cell.ts).
    const cell = filledCell(values[index] ?? null);
    if (!field || cell === undefined) return;
    const parsed = parseCell(field, cell);
    if ("problem" in parsed) {
      problems.add(where, parsed.problem);
      ok = false;
    } else set.set(name, parsed.value);
  });
  for (const name of spec.required) {
    if (names.includes(name) && (set.get(name) ?? null) === null && ok) {
      problems.add(where, `${name} is required for ${spec.op}`);
      ok = false;
    }
  }
  return ok ? set : undefined;
}

/**
 * A cell under a blank header holds a value: the file says nothing of which field it is for, so it
 * can be neither sent nor left out unsaid.
 */
function unnamedCells(
  values: readonly (string | null)[],
  columns: readonly string[],
  where: string,
  problems: ChangeProblems,
): boolean {
  let found = false;
  columns.forEach((raw, index) => {
    const cell = filledCell(values[index] ?? null);
    if (raw.trim() !== "" || cell === undefined) return;
    problems.add(
      where,
      `column ${index + 1} has no header but holds ${quotedCell(cell)}: give the column the name of a field, or delete it`,
    );
    found = true;
  });
  return found;
}

/**
 * A merged range reaching a data row gives its first cell's value to every cell it covers, as the
 * reader takes it: a description merged across grp_external_name would be sent as that too, a
 * status merged down to the rows below, values nobody typed there. The sheet shows one value, so
 * the file cannot say which cell meant it: refused like a hidden row. A range in the header alone
 * repeats a column's name, a header problem of its own. (`roster import` keeps filling them: a
 * department merged down its people is the value of each, and nothing is sent anywhere.)
 */
function mergedRanges(source: TabularSource, problems: ChangeProblems): void {
  const header = source.headerLine ?? 0;
  for (const { ref, top, bottom } of source.mergedRanges ?? []) {
    if (bottom <= header) continue;
    problems.add(
      `${source.unit} ${Math.max(top, header + 1)}`,
      `cells ${ref} are merged, and the file gives the first one's value to each of them: unmerge them and type each value in its own cell, leaving blank the cells that change nothing`,
    );
  }
}

/** A create's key: the same link twice in one file is a mistake, like an id twice. */
function createKey(set: ReadonlyMap<string, CellValue>): string {
  return `user ${set.get("user_grp_user_id")} in group ${set.get("user_grp_grp_id")}`;
}

function readRows(
  source: TabularSource,
  names: readonly string[],
  spec: OpSpec,
  problems: ChangeProblems,
  firstRows: TabularRow[],
): ChangeRow[] {
  const rows: ChangeRow[] = [];
  const firstLine = new Map<string, number>();
  const idIndex = spec.idColumn ? names.indexOf(spec.idColumn) : -1;
  const noIdColumn = spec.idColumn !== undefined && idIndex < 0;
  // Nobody sees a hidden row, yet it would be sent (see hidden-cells.ts).
  const hidden = new Set(source.hiddenLines);
  const keepFirst = (row: TabularRow) => {
    if (firstRows.length < HEADER_ROWS_LOOKED_AT) firstRows.push(row);
  };
  forEachRow(
    source,
    problems,
    (row, where) => {
      if (hidden.has(row.line)) problems.add(where, HIDDEN_ROW_PROBLEM);
      const { values, bad } = notedTexts(row, source, names, spec, where, problems);
      const idCell = idIndex >= 0 ? (values[idIndex] ?? null) : null;
      // An id cell that could not be read is already a problem: not "blank" as well. Nor is any row
      // of a file with no id column: the header says so once, and a row of it has no cell to fill.
      const id =
        bad.has(idIndex) || noIdColumn
          ? undefined
          : rowId(idCell, spec, where, firstLine, problems, source.unit);
      // A repeated id is a problem even when the first row has others of its own.
      if (typeof id === "number") firstLine.set(String(id), row.line);
      const set = readRow(values, names, spec, where, problems);
      const unnamed = unnamedCells(values, source.columns, where, problems);
      if (id === undefined || set === undefined || bad.size > 0 || unnamed) return;
      if (id === null) {
        const key = createKey(set);
        const earlier = firstLine.get(key);
        if (earlier !== undefined) {
          problems.add(where, `${key} is also on ${source.unit} ${earlier}`);
          return;
        }
        firstLine.set(key, row.line);
      }
      rows.push({ line: row.line, values, id, set });
    },
    keepFirst,
  );
  return rows;
}

/**
 * Another sheet of the workbook at `path` with every column `spec` needs, when the sheet read
 * (`names` its header's fields) lacks one (`lacked`): an "Instructions" sheet first, the changes
 * behind it. apply reads the first sheet only (it has no --sheet: a change set is known by its
 * file's sha256 and operation, which name no sheet), so the fix is to move that sheet first.
 */
async function sheetWithColumns(
  path: string,
  source: TabularSource,
  names: readonly string[],
  spec: OpSpec,
): Promise<{ sheet: string; lacked: string[] } | undefined> {
  const lacked = lackedColumns(names, spec);
  if (lacked.length === 0) return undefined;
  const sheet = await otherSheetWith(path, basename(path), source, (columns) => {
    return (
      lackedColumns(
        columns.map((raw) => headerField(raw, spec)),
        spec,
      ).length === 0
    );
  });
  return sheet === undefined ? undefined : { sheet, lacked };
}

/**
 * Reads the change file at `path` for `spec`. Throws TabularError (unreadable) or ChangeFileError
 * (listing every problem found, the first few with their lines), naming the file `shown` (its
 * folder too: a file missing from another folder than the user thinks is found that way). The
 * change set keeps the file's name alone.
 */
export async function readChangeFile(
  path: string,
  spec: OpSpec,
  shown = basename(path),
): Promise<ChangeFile> {
  const file = basename(path);
  const opened = await openTabularFile(path, { file: shown });
  const { source } = opened;
  const problems = new ChangeProblems();
  const names = mapHeader(source, spec, problems);
  mergedRanges(source, problems);
  const firstRows: TabularRow[] = [];
  const rows = readRows(source, names, spec, problems, firstRows);
  // Before its problems: a file cut short by its writer has them, and more rows to come.
  await checkUnchanged(path, opened.stamp, shown);
  if (problems.count > 0) {
    const below = headerRowBelow(names, firstRows, spec);
    if (below !== undefined) throw headerBelowError(tableName(shown, source), source, below.line);
    const other = await sheetWithColumns(path, source, names, spec);
    const elsewhere = other && { ...other, read: source.detail, op: spec.op };
    throw problems.toError(tableName(shown, source), elsewhere);
  }
  const { columns, unit } = source;
  const readAs = headersReadAs(columns, names);
  const delimiter = source.delimiter ?? ",";
  const { sha256, stamp } = opened;
  return { file, sha256, columns, names, readAs, unit, delimiter, rows, stamp };
}
