/**
 * A workbook written by exceljs with rows of zero height and columns of zero width, as Excel saves
 * a row or column dragged shut (`<row ht="0" customHeight="1">`, `<col width="0" customWidth="1">`,
 * ECMA-376 Part 1, 18.3.1.73 and 18.3.1.13). exceljs writes neither (it leaves out a height or
 * width of 0), so its first sheet's XML is edited after it wrote it.
 */
import { writeFile } from "node:fs/promises";
import type ExcelJS from "exceljs";
import JSZip from "jszip";

const SHEET = "xl/worksheets/sheet1.xml";

/** Writes `workbook` to `path`, rows and columns (1-based) in `shut` at zero size. */
export async function writeZeroSized(
  workbook: ExcelJS.Workbook,
  path: string,
  shut: { rows?: readonly number[]; columns?: readonly number[] },
): Promise<void> {
  const zip = await JSZip.loadAsync(await workbook.xlsx.writeBuffer());
  let xml = (await zip.file(SHEET)?.async("string")) ?? "";
  if (xml === "") throw new Error(`the workbook has no ${SHEET}`);
  for (const row of shut.rows ?? []) {
    const open = `<row r="${row}"`;
    if (!xml.includes(open)) throw new Error(`the sheet has no row ${row}`);
    xml = xml.replace(open, `${open} ht="0" customHeight="1"`);
  }
  const cols = (shut.columns ?? []).map(
    (column) => `<col min="${column}" max="${column}" width="0" customWidth="1"/>`,
  );
  if (cols.length > 0) {
    if (xml.includes("<cols>")) throw new Error("the sheet has columns of its own: write none");
    xml = xml.replace("<sheetData", `<cols>${cols.join("")}</cols><sheetData`);
  }
  zip.file(SHEET, xml);
  const bytes = await zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
  await writeFile(path, bytes);
}
