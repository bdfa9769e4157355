/**
 * The cells of a workbook's first sheet as its XML holds them, read by unzipping the file with
 * JSZip: the stored type and text of each cell, with no spreadsheet library in between (exceljs,
 * the writer, would read its own mistakes back as they were meant).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import JSZip from "jszip";
import { expect } from "vitest";
import type { ReportFormat } from "../../../src/report/catalog.js";
import { runReports } from "../../../src/report/run-report.js";
import type { TestDatabase } from "../../fixtures/lms-dataset.js";

/** A cell as stored: `type` is its `t` attribute ("" for a number), `text` its value. */
export interface StoredCell {
  readonly type: string;
  readonly text: string;
}

const CELL = /<c r="([A-Z]+\d+)"([^>]*?)(?:\/>|>(.*?)<\/c>)/g;
const TYPE = /\st="([^"]*)"/;
const VALUE = /<v>(.*?)<\/v>|<t[^>]*>(.*?)<\/t>/;

export function unescapeXml(text: string): string {
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

/** The day every sheet of these tests is written on: its files end in `-2026-03-10`. */
const NOW = new Date("2026-03-10T08:00:00Z");

/**
 * Writes `sql` as `DIR/NAME.sql`, runs it as a report into `DIR/out` as xlsx (and `also`), and
 * answers the stored cells of `DIR/out/NAME-2026-03-10.xlsx`.
 */
export async function reportSheet(
  db: TestDatabase,
  dir: string,
  name: string,
  sql: string,
  also: ReportFormat[] = [],
): Promise<Map<string, StoredCell>> {
  await writeFile(join(dir, `${name}.sql`), sql);
  await runReports(db, [`${name}.sql`], {
    outDir: join(dir, "out"),
    formats: ["xlsx", ...also],
    cwd: dir,
    now: NOW,
  });
  return storedCells(join(dir, "out", `${name}-2026-03-10.xlsx`));
}

/** A number cell holding `text`, as `toEqual` matches it. */
export const numberCell = (text: string) => ({ type: "", text });
/** A text cell holding `text`, whatever the writer's kind of text cell (inline or shared). */
export const textCell = (text: string) => ({
  type: expect.stringMatching(/^(str|inlineStr)$/),
  text,
});

/**
 * The number format code of each cell of `column` (a letter) by row, from the sheet's `s`
 * attributes and the styles XML: "builtin" for one of Excel's own.
 */
export async function columnFormats(file: string, column: string): Promise<Map<number, string>> {
  const zip = await JSZip.loadAsync(await readFile(file));
  const sheet = (await zip.file("xl/worksheets/sheet1.xml")?.async("string")) ?? "";
  const styles = (await zip.file("xl/styles.xml")?.async("string")) ?? "";
  const codes = new Map<string, string>();
  for (const [, id, code] of styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)) {
    codes.set(id ?? "", unescapeXml(code ?? ""));
  }
  const xfs = [
    ...(/<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(styles)?.[1] ?? "").matchAll(
      /<xf [^>]*?numFmtId="(\d+)"/g,
    ),
  ].map((m) => m[1] ?? "");
  const formats = new Map<number, string>();
  for (const [, row, style] of sheet.matchAll(
    new RegExp(`<c r="${column}(\\d+)"[^>]*?\\ss="(\\d+)"`, "g"),
  )) {
    formats.set(Number(row), codes.get(xfs[Number(style)] ?? "") ?? "builtin");
  }
  return formats;
}
