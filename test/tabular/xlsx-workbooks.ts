/**
 * Workbooks for the XLSX reader's tests: written part by part (sheet XML as a test gives it, the
 * zip's parts in the order it asks for), and read again by exceljs's whole-workbook loader, the
 * reader the XLSX reader replaced, as the reference each reading must equal.
 */
import ExcelJS from "exceljs";
import JSZip from "jszip";
import { cellNote, cellText } from "../../src/tabular/xlsx-cell-text.js";

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELS = "http://schemas.openxmlformats.org/package/2006/relationships";
const NS = `xmlns="${MAIN}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`;
const WORKSHEET = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet";

export interface CraftedSheet {
  readonly name: string;
  /** The worksheet element's content (`<sheetData>…`), or null for a sheet whose part is missing. */
  readonly xml: string | null;
  /** The sheet's own relationships (`<Relationship …/>`), for its links. */
  readonly rels?: string;
}

export interface CraftedBook {
  readonly sheets: readonly CraftedSheet[];
  /** The shared strings' content (`<si>…`); no part when left out. */
  readonly strings?: string;
  /** Custom number formats [id, code] and the number format of each cell style (`s`) by index. */
  readonly numFmts?: readonly (readonly [number, string])[];
  readonly cellFormats?: readonly number[];
  readonly date1904?: boolean;
  /** Parts to put first in the zip, in this order; the others follow as written. */
  readonly first?: readonly string[];
}

function stylesPart(numFmts: CraftedBook["numFmts"], cellFormats: readonly number[]): string {
  const fmts = (numFmts ?? []).map(
    ([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code}"/>`,
  );
  const xfs = cellFormats.map(
    (id) => `<xf numFmtId="${id}" fontId="0" fillId="0" borderId="0" applyNumberFormat="1"/>`,
  );
  return `<styleSheet ${NS}><numFmts>${fmts.join("")}</numFmts><fonts><font/></fonts><fills><fill/></fills><borders><border/></borders><cellXfs>${xfs.join("")}</cellXfs></styleSheet>`;
}

function bookParts(book: CraftedBook): Record<string, string> {
  const sheets = book.sheets.map(
    (s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`,
  );
  const rels = book.sheets.map(
    (_, i) =>
      `<Relationship Id="rId${i + 1}" Type="${WORKSHEET}" Target="worksheets/sheet${i + 1}.xml"/>`,
  );
  const pr = book.date1904 ? '<workbookPr date1904="1"/>' : "";
  const parts: Record<string, string> = {
    "xl/workbook.xml": `<workbook ${NS}>${pr}<sheets>${sheets.join("")}</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": `<Relationships xmlns="${RELS}">${rels.join("")}</Relationships>`,
    "xl/styles.xml": stylesPart(book.numFmts, book.cellFormats ?? [0]),
  };
  if (book.strings !== undefined) {
    parts["xl/sharedStrings.xml"] = `<sst xmlns="${MAIN}">${book.strings}</sst>`;
  }
  book.sheets.forEach((sheet, i) => {
    if (sheet.xml !== null) {
      parts[`xl/worksheets/sheet${i + 1}.xml`] = `<worksheet ${NS}>${sheet.xml}</worksheet>`;
    }
    if (sheet.rels !== undefined) {
      parts[`xl/worksheets/_rels/sheet${i + 1}.xml.rels`] =
        `<Relationships xmlns="${RELS}">${sheet.rels}</Relationships>`;
    }
  });
  return parts;
}

/** The bytes of an .xlsx file holding `book`. */
export async function craftWorkbook(book: CraftedBook): Promise<Buffer> {
  const parts = bookParts(book);
  const first = (book.first ?? []).filter((name) => name in parts);
  const zip = new JSZip();
  for (const name of [...first, ...Object.keys(parts).filter((n) => !first.includes(n))]) {
    zip.file(name, `<?xml version="1.0" encoding="UTF-8"?>${parts[name]}`);
  }
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

/** The same bytes with the zip's parts reordered: `first` first, the rest as they were. */
export async function reorderParts(bytes: Uint8Array, first: readonly string[]): Promise<Buffer> {
  const zip = await JSZip.loadAsync(bytes);
  const names = Object.keys(zip.files).filter((name) => !zip.files[name]?.dir);
  const out = new JSZip();
  for (const name of [...first, ...names.filter((n) => !first.includes(n))]) {
    const part = zip.file(name);
    if (part) out.file(name, await part.async("uint8array"));
  }
  return out.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

/** What a reading gives, in one comparable value: the header, rows, notes, or the error. */
export type Reading =
  | {
      columns: readonly string[];
      detail: string;
      rows: { line: number; values: readonly (string | null)[] }[];
      notes: [number, [number, unknown][]][];
    }
  | { error: string };

function wholeRow(row: ExcelJS.Row) {
  const texts: (string | null)[] = [];
  const notes: [number, unknown][] = [];
  row.eachCell({ includeEmpty: false }, (cell, column) => {
    texts[column - 1] = cellText(cell.value, cell.numFmt);
    const note = cellNote(cell.value, cell.numFmt);
    if (note) notes.push([column - 1, note]);
  });
  let end = texts.length;
  while (end > 0 && (texts[end - 1] ?? null) === null) end--;
  return { values: Array.from({ length: end }, (_, i) => texts[i] ?? null), notes };
}

async function wholeSheet(bytes: Uint8Array, file: string, sheet?: string) {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch (error) {
    throw new Error(`${file} cannot be read as an XLSX workbook (${(error as Error).message})`);
  }
  const names = book.worksheets.map((ws) => JSON.stringify(ws.name)).join(", ");
  const found =
    sheet === undefined ? book.worksheets[0] : book.worksheets.find((ws) => ws.name === sheet);
  if (found) return found;
  if (sheet === undefined) throw new Error(`${file} has no sheets`);
  throw new Error(
    `${file} has no sheet "${sheet}"; its sheets are ${names}: pass one with --sheet`,
  );
}

/** The reading of exceljs's whole-workbook loader, with the reader's texts, notes and messages. */
export async function readWholeWorkbook(
  bytes: Uint8Array,
  file: string,
  sheet?: string,
): Promise<Reading> {
  try {
    const worksheet = await wholeSheet(bytes, file, sheet);
    const rows: { line: number; values: (string | null)[]; notes: [number, unknown][] }[] = [];
    worksheet.eachRow({ includeEmpty: false }, (row, line) => {
      const cells = wholeRow(row);
      if (cells.values.length > 0) rows.push({ line, ...cells });
    });
    const header = rows.shift();
    if (!header) throw new Error(`${file}: sheet "${worksheet.name}" is empty`);
    const columns = header.values.map((value) => value ?? "");
    return {
      columns,
      detail: `sheet "${worksheet.name}"`,
      rows: rows.map(({ line, values }) => ({
        line,
        values: [...values, ...Array<null>(Math.max(0, columns.length - values.length)).fill(null)],
      })),
      notes: rows.filter((row) => row.notes.length > 0).map((row) => [row.line, row.notes]),
    };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
