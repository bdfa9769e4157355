/**
 * The About sheet's values wrap within their column: a report's description is a paragraph (a
 * thousand characters for the shipped weekly report), and on one line it ran far past the
 * sheet's three columns, so a reader saw its start and a printed page cut it at the third column.
 * Read back from the workbook's XML: the cell's style and what that style says.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { reportSheet } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-about-wrap-");

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

const DESCRIPTION = "Where everyone stands on the courses they must complete. ".repeat(12).trim();
const SQL = `-- title: Long description
-- description: ${DESCRIPTION}
SELECT 1 AS n
`;

test("the About sheet's description wraps within its column", async () => {
  await reportSheet(db, dir, "described", SQL);
  const zip = await JSZip.loadAsync(await readFile(join(dir, "out", "described-2026-03-10.xlsx")));
  const about = (await zip.file("xl/worksheets/sheet2.xml")?.async("string")) ?? "";
  const styles = (await zip.file("xl/styles.xml")?.async("string")) ?? "";
  const cell = new RegExp(`<c r="(B\\d+)"( s="(\\d+)")?[^>]*><v>${DESCRIPTION.slice(0, 40)}`).exec(
    about,
  );
  expect(cell, "the description's cell").not.toBeNull();
  const xfs = [
    ...(/<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(styles)?.[1] ?? "").matchAll(
      /<xf [^>]*?(?:\/>|>.*?<\/xf>)/gs,
    ),
  ].map((m) => m[0]);
  const style = xfs[Number(cell?.[3] ?? 0)] ?? "";
  expect(style).toMatch(/<alignment [^>]*wrapText="1"/);
  expect(style).toMatch(/<alignment [^>]*vertical="top"/);
});
