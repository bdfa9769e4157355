/**
 * XLSX workbooks, read whole with exceljs: the first sheet or the one named, its first non-empty
 * row the header, each row numbered as the sheet numbers it.
 */
import ExcelJS from "exceljs";
import { type CellNote, TabularError, type TabularRow, type TabularSource } from "./types.js";
import { cellNote, cellText } from "./xlsx-cell-text.js";

interface SheetRow {
  readonly line: number;
  readonly values: (string | null)[];
  readonly notes: Map<number, CellNote>;
}

function rowTexts(row: ExcelJS.Row): Omit<SheetRow, "line"> {
  const texts: (string | null)[] = [];
  const notes = new Map<number, CellNote>();
  row.eachCell({ includeEmpty: false }, (cell, column) => {
    texts[column - 1] = cellText(cell.value);
    const note = cellNote(cell);
    if (note) notes.set(column - 1, note);
  });
  // eachCell leaves holes for empty cells; the last non-empty cell sets the length.
  let end = texts.length;
  while (end > 0 && (texts[end - 1] ?? null) === null) end--;
  return { values: Array.from({ length: end }, (_, i) => texts[i] ?? null), notes };
}

async function loadWorkbook(bytes: Uint8Array, file: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs declares its own Buffer type; the bytes are a Node Buffer at run time.
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TabularError(`${file} cannot be read as an XLSX workbook (${reason})`, {
      cause: error,
    });
  }
  return workbook;
}

function pickSheet(workbook: ExcelJS.Workbook, file: string, sheet?: string): ExcelJS.Worksheet {
  const names = workbook.worksheets.map((ws) => ws.name);
  const found =
    sheet === undefined
      ? workbook.worksheets[0]
      : workbook.worksheets.find((ws) => ws.name === sheet);
  if (found) return found;
  if (sheet === undefined) throw new TabularError(`${file} has no sheets`);
  const list = names.map((name) => JSON.stringify(name)).join(", ");
  throw new TabularError(
    `${file} has no sheet "${sheet}"; its sheets are ${list}: pass one with --sheet`,
  );
}

/** Opens the workbook in `bytes`: `sheet` by name, or the first one. */
export async function openXlsx(
  bytes: Uint8Array,
  file: string,
  sheet?: string,
): Promise<TabularSource> {
  const worksheet = pickSheet(await loadWorkbook(bytes, file), file, sheet);
  const texts: SheetRow[] = [];
  worksheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells = rowTexts(row);
    if (cells.values.length > 0) texts.push({ line, ...cells });
  });
  const header = texts.shift();
  if (!header) throw new TabularError(`${file}: sheet "${worksheet.name}" is empty`);
  const columns = header.values.map((value) => value ?? "");
  function* rows(): Generator<TabularRow> {
    for (const { line, values } of texts) {
      while (values.length < columns.length) values.push(null);
      yield { line, values };
    }
  }
  const notes = new Map(
    texts.filter((row) => row.notes.size > 0).map((row) => [row.line, row.notes]),
  );
  const detail = `sheet "${worksheet.name}"`;
  return { format: "xlsx", columns, unit: "row", detail, rows, notes };
}
