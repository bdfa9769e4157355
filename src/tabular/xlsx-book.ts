/**
 * What a workbook says of itself before any sheet is read: its sheets in the workbook's order
 * (not the zip's), each with the part holding it, and the parts every cell of a sheet refers to
 * (styles, shared strings). Sheets are matched to parts as exceljs's whole-workbook loader matched
 * them (lib/xlsx/xform/book/workbook-xform.js), so the same sheets are found under the same names.
 */
import {
  type Relationship,
  RelationshipsXform,
  SharedStringsXform,
  StylesXform,
  WorkbookXform,
} from "./exceljs-parsers.js";
import { withLocaleDateFormats } from "./xlsx-locale-date-formats.js";
import { ownSharedStrings } from "./xlsx-own-strings.js";
import { type Part, readPart } from "./xlsx-package.js";

/** exceljs reads a part as a worksheet when its name matches this. */
const WORKSHEET_PART = /xl\/worksheets\/sheet(\d+)[.]xml/;

export interface BookSheet {
  readonly name: string;
  readonly part: Part;
  /** The number in the part's name, which names the sheet's own relationships part too. */
  readonly sheetNo: string;
  /** Whether the workbook hides the sheet (`hidden`, or `veryHidden`: shown by no menu). */
  readonly hidden: boolean;
}

export interface Book {
  /** The sheets in the workbook's order, those with a worksheet part only (not chart sheets). */
  readonly sheets: readonly BookSheet[];
  readonly date1904: boolean | undefined;
}

async function relationships(
  parts: ReadonlyMap<string, Part>,
  path: string,
): Promise<Map<string, Relationship>> {
  const rels = await readPart(parts, path, new RelationshipsXform());
  // A repeated Id: the last one counts, as it did in exceljs's reduce.
  return new Map((rels?.model ?? []).map((rel) => [rel.Id, rel]));
}

/** Reads the workbook part and its relationships. */
export async function readBook(parts: ReadonlyMap<string, Part>): Promise<Book> {
  const rels = await relationships(parts, "xl/_rels/workbook.xml.rels");
  const workbook = (await readPart(parts, "xl/workbook.xml", new WorkbookXform()))?.model;
  const sheets: BookSheet[] = [];
  for (const sheet of workbook?.sheets ?? []) {
    const rel = rels.get(sheet.rId);
    if (rel === undefined) continue;
    // A target may be absolute ("/xl/worksheets/sheet1.xml") or relative to xl/.
    const path = `xl/${rel.Target.replace(/^(\s|\/xl\/)+/, "")}`;
    const part = parts.get(path);
    const sheetNo = WORKSHEET_PART.exec(path)?.[1];
    const hidden = sheet.state === "hidden" || sheet.state === "veryHidden";
    if (part !== undefined && sheetNo !== undefined)
      sheets.push({ name: sheet.name, part, sheetNo, hidden });
  }
  return { sheets, date1904: workbook?.properties?.date1904 };
}

/** The styles and shared strings a sheet's cells refer to, each undefined when the file has none. */
export async function readCellParts(parts: ReadonlyMap<string, Part>) {
  const sharedStrings = await readPart(parts, "xl/sharedStrings.xml", new SharedStringsXform());
  if (sharedStrings) ownSharedStrings(sharedStrings);
  const styles = await readPart(parts, "xl/styles.xml", new StylesXform());
  return { styles: withLocaleDateFormats(styles), sharedStrings };
}

/** Link targets by relationship Id, from the sheet's own relationships part. */
export async function sheetLinkTargets(
  parts: ReadonlyMap<string, Part>,
  sheet: BookSheet,
): Promise<ReadonlyMap<string, string>> {
  const rels = await relationships(parts, `xl/worksheets/_rels/sheet${sheet.sheetNo}.xml.rels`);
  return new Map([...rels].map(([id, rel]) => [id, rel.Target]));
}
