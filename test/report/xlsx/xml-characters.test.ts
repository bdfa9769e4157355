/**
 * U+FFFE and U+FFFF are not characters XML 1.0 can hold: one in a name (a portal's or a roster's
 * text, a column's name) made the sheet's XML ill-formed, and Excel offered to repair the
 * workbook and dropped the sheet's cells. They are written as U+FFFD; the CSV keeps them. So are
 * the control characters XML cannot hold, as the HTML page shows them: the workbook dropped them
 * without a trace ("A\u0001B" read "AB", and "\v=1+1" a text "=1+1" with no leading apostrophe).
 * Read back from the parts' XML itself.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { reportSheet, storedRow } from "./sheet-xml.js";

const dir = tempDirForFile("lms-xlsx-xml-chars-");

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
});
afterAll(() => db.close());

/** XML 1.0's Char production, as a whole part must match it. */
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/** A name and a column's name holding them, beside a number. */
const SQL = `-- title: Noncharacters
SELECT 'Zo\uFFFFe' AS name, 'a\uFFFEb' AS "team\uFFFF", 1 AS n
`;

test("a text holding U+FFFE or U+FFFF leaves every part of the workbook well-formed", async () => {
  const cells = await reportSheet(db, dir, "nonchars", SQL, ["csv"]);
  expect(storedRow(cells, 1, 2).map((c) => c?.text)).toEqual(["Name", "Team\uFFFD"]);
  expect(storedRow(cells, 2, 3).map((c) => c?.text)).toEqual(["Zo\uFFFDe", "a\uFFFDb", "1"]);
  const zip = await JSZip.loadAsync(await readFile(join(dir, "out", "nonchars-2026-03-10.xlsx")));
  const parts = Object.values(zip.files).filter((f) => f.name.endsWith(".xml"));
  expect(parts.length).toBeGreaterThan(2);
  for (const part of parts) {
    const xml = await part.async("string");
    expect(XML_CHARS.test(xml), part.name).toBe(true);
  }
  const csv = await readFile(join(dir, "out", "nonchars-2026-03-10.csv"), "utf8");
  expect(csv).toContain("Zo\uFFFFe,a\uFFFEb,1");
});

/** Control characters a roster or portal text may hold, and one that would start a formula. */
const CONTROLS = `-- title: Controls
SELECT 'A' || chr(1) || 'B' || chr(27) || 'C' AS name, chr(11) || '=1+1' AS note
`;

test("a control character XML cannot hold is U+FFFD in the workbook, as on the page", async () => {
  const cells = await reportSheet(db, dir, "controls", CONTROLS, ["html"]);
  expect(storedRow(cells, 2, 2).map((c) => c?.text)).toEqual(["A\uFFFDB\uFFFDC", "\uFFFD=1+1"]);
  const page = await readFile(join(dir, "out", "controls-2026-03-10.html"), "utf8");
  expect(page).toContain(">A\uFFFDB\uFFFDC<");
});
