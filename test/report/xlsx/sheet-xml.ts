/**
 * The cells of a workbook's first sheet as its XML holds them, read by unzipping the file with
 * JSZip: the stored type and text of each cell, with no spreadsheet library in between (exceljs,
 * the writer, would read its own mistakes back as they were meant).
 */
import { readFile } from "node:fs/promises";
import JSZip from "jszip";

/** A cell as stored: `type` is its `t` attribute ("" for a number), `text` its value. */
export interface StoredCell {
  readonly type: string;
  readonly text: string;
}

const CELL = /<c r="([A-Z]+\d+)"([^>]*?)(?:\/>|>(.*?)<\/c>)/g;
const TYPE = /\st="([^"]*)"/;
const VALUE = /<v>(.*?)<\/v>|<t[^>]*>(.*?)<\/t>/;

function unescapeXml(text: string): string {
  return text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
}

/** The first sheet's cells by reference ("A2"). */
export async function storedCells(file: string): Promise<Map<string, StoredCell>> {
  const zip = await JSZip.loadAsync(await readFile(file));
  const xml = await zip.file("xl/worksheets/sheet1.xml")?.async("string");
  if (xml === undefined) throw new Error(`${file} has no first sheet`);
  const cells = new Map<string, StoredCell>();
  for (const [, ref, attributes, body] of xml.matchAll(CELL)) {
    const value = VALUE.exec(body ?? "");
    cells.set(ref ?? "", {
      type: TYPE.exec(attributes ?? "")?.[1] ?? "",
      text: unescapeXml(value?.[1] ?? value?.[2] ?? ""),
    });
  }
  return cells;
}

/** The stored cells of row `row` from column A on, as many as `columns`. */
export function storedRow(
  cells: ReadonlyMap<string, StoredCell>,
  row: number,
  columns: number,
): (StoredCell | undefined)[] {
  return Array.from({ length: columns }, (_, c) =>
    cells.get(`${String.fromCharCode(65 + c)}${row}`),
  );
}
