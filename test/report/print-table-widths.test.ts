/**
 * `sql --format table` lines its columns up in terminal columns, not in UTF-16 code units: a
 * Chinese or Japanese character and an emoji take two, an accent combined with its letter none;
 * a cell is cut at 60 columns between characters as a reader sees them, never inside an emoji's
 * surrogate pair or between a letter and its accent. The expected lines are counted by hand. A
 * real DuckDB result.
 */
import { expect, test } from "vitest";
import { printedTable } from "./printed-table.js";

/** The lines `sql --format table` prints for `query`, its row count line left out. */
async function tableLines(query: string): Promise<string[]> {
  return (await printedTable(query)).trimEnd().split("\n").slice(0, -1);
}

const ACCENTED = "e\u0301te"; // "éte" with the accent as a mark of its own: 3 columns
const THUMB = "\u{1F44D}\u{1F3FD}"; // thumbs up, medium skin tone: one emoji of 2 columns

test("table: wide characters, emoji and combining accents line up by the columns they take", async () => {
  const lines = await tableLines(
    `SELECT * FROM (VALUES ('東京', '${ACCENTED}', '${THUMB}', 1), ('ab', 'x', 'ok', 22))
       t(city, word, mark, n)`,
  );
  expect(lines).toEqual([
    "city | word | mark | n",
    "-----+------+------+---",
    `東京 | ${ACCENTED}  | ${THUMB}   |  1`,
    "ab   | x    | ok   | 22",
  ]);
});

test("table: a column named in wide characters is as wide as its name's columns", async () => {
  const lines = await tableLines(`SELECT 'a' AS "名前", 7 AS "件数"`);
  expect(lines).toEqual(["名前 | 件数", "-----+-----", "a    |    7"]);
});

test("table: a long cell is cut at 60 columns between whole characters, with …", async () => {
  const wide = "日".repeat(70);
  const emoji = `ab${"\u{1F600}".repeat(40)}`;
  const accents = "e\u0301".repeat(70);
  const lines = await tableLines(`SELECT '${wide}' AS c UNION ALL SELECT '${emoji}' UNION ALL
    SELECT '${accents}' UNION ALL SELECT 'x'`);
  // 29 wide characters take 58 columns: a 30th, with the …, would take 61.
  const cutWide = `${"日".repeat(29)}…`;
  const cutEmoji = `ab${"\u{1F600}".repeat(28)}…`;
  const cutAccents = `${"e\u0301".repeat(59)}…`;
  expect(lines).toEqual(["c", "-".repeat(60), cutWide, cutEmoji, cutAccents, "x"]);
  // With the u flag, a surrogate matches only when it is not half of a pair.
  for (const line of lines) expect(line).not.toMatch(/[\uD800-\uDFFF]/u);
});
