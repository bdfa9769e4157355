/**
 * A list setting on the HTML page reads with a space after each comma, item by item: an item
 * that holds a comma itself (a report definition's ["Left, voluntary", "gone"]) must not read as
 * two items, nor with two spaces where its own comma is. A report of a catalog of its own on a
 * real DuckDB file; the page read back with an HTML parser.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runReports } from "../../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../../fixtures/lms-dataset.js";
import { tempDir } from "../../helpers/temp-dir.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await createLmsDatabase();
});
afterAll(() => db?.close());

test("a list item holding a comma is shown as one item, quoted", async () => {
  const root = await tempDir("lms-setting-items-");
  await mkdir(join(root, "queries"));
  await mkdir(join(root, "reports"));
  await writeFile(
    join(root, "queries", "statuses.sql"),
    [
      "-- title: Statuses",
      "-- description: How many statuses and products are named.",
      "-- param statuses string_list = inactive: Statuses named",
      "-- param ids int_list = []: Products named",
      "SELECT len($statuses) AS statuses, len($ids) AS ids",
    ].join("\n"),
  );
  // The statuses as only a report definition can give them: one item holds a comma.
  const definition = `{"title": "Statuses", "description": "The statuses named.",
    "queries": ["statuses"], "formats": ["html"], "fileName": "{report}",
    "params": {"statuses": ["Left, voluntary", "gone"], "ids": [3, 7]}}`;
  await writeFile(join(root, "reports", "named-statuses.json"), definition);
  const outDir = join(root, "out");
  await runReports(db, ["named-statuses"], { outDir, catalogRoot: root, now: new Date() });
  const [page] = await readdir(outDir);
  const { document } = parseHTML(await readFile(join(outDir, page ?? ""), "utf8"));
  const items = [...document.querySelectorAll("ul.settings li")].map((li) => li.textContent);
  expect(items).toEqual(['Statuses named: "Left, voluntary", gone', "Products named: 3, 7"]);
});
