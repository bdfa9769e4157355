/**
 * The HTML page says how the roster covers the data, as the workbook's About sheet does: with
 * people missing from the roster, their rows have empty names and "department (not set)", and
 * the page showed them without a word on why. The shipped weekly report on a real DuckDB whose
 * roster lacks two of the people in the data; the page read as text.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { loadCatalog } from "../../../src/report/catalog.js";
import { projectRoot } from "../../../src/report/project-root.js";
import { runReports } from "../../../src/report/run-report.js";
import { createLmsDatabase, dropTwoFromRoster } from "../../fixtures/lms-dataset.js";

const NOW = new Date("2026-03-10T09:00:00Z");
let dir: string;
let db: Awaited<ReturnType<typeof createLmsDatabase>>;
/** The people of the data the roster lacks, counted here: the fixture's one, and two more. */
let missing: number;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-roster-line-"));
  db = await createLmsDatabase({ roster: true });
  const connection = await db.connect();
  missing = await dropTwoFromRoster(connection);
  connection.closeSync();
  expect(missing).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  db?.close();
  await rm(dir, { recursive: true, force: true });
});

test("the page's header counts the people not in the roster, as the About sheet does", async () => {
  const catalog = await loadCatalog(projectRoot());
  const outDir = join(dir, "out");
  const [result] = await runReports(db, ["weekly-compliance"], {
    outDir,
    catalog,
    now: NOW,
    formats: ["html"],
  });
  expect(result?.files).toHaveLength(1);
  const html = await readFile(join(outDir, (await readdir(outDir))[0] ?? ""), "utf8");
  const header = html.slice(0, html.indexOf("<h2"));
  expect(header).toMatch(
    new RegExp(`<p class="meta">Roster: \\d+ people · People not in the roster: ${missing}</p>`),
  );
});
