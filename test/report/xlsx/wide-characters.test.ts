/**
 * Excel measures a column in digit widths, and a Chinese, Japanese or Korean character takes two
 * of them: counted by its length, a column of Japanese course titles was made half as wide as
 * its titles, which were cut off by the next column. Read back from the sheet's XML.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { reportSheet } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-wide-");

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

/** A kanji label over a short value; a title of 14 kana and kanji; a Latin one as long. */
const SQL = `-- title: Titles
-- label course_code: 研修コースの正式名称と実施レベル
SELECT 'C1' AS course_code, 'コンプライアンス基礎レベル一' AS title_ja, 'Compliance one' AS title_en
`;

test("a column of Chinese, Japanese or Korean text is as wide as its characters take", async () => {
  await reportSheet(db, dir, "titles", SQL);
  const zip = await JSZip.loadAsync(await readFile(join(dir, "out", "titles-2026-03-10.xlsx")));
  const xml = (await zip.file("xl/worksheets/sheet1.xml")?.async("string")) ?? "";
  const widths = [...xml.matchAll(/<col min="(\d+)" max="(\d+)" width="([\d.]+)"/g)].map((m) =>
    Number(m[3]),
  );
  // The label's 16 kanji and kana take 32 digit widths, the title's 14 take 28; the Latin 14.
  expect(widths[0]).toBeGreaterThanOrEqual(32);
  expect(widths[1]).toBeGreaterThanOrEqual(28);
  expect(widths[2]).toBeLessThan(20);
});
