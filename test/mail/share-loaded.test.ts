/**
 * A share of a split report says its data was loaded when the whole report says it was. A share
 * reads the report's rows kept for the mailing, a table no extract loads, and its files used to
 * work out the load from that: as if the report read every extracted table, so a share named an
 * older run than its report (run 1, which alone loaded the availabilities team-compliance never
 * reads, instead of run 2) and listed each run's tables. The hand-built dataset's runs
 * (test/fixtures/lms-dataset.ts): run 1 loaded every table, run 2 the five the report reads.
 * Mailed to a real SMTP server on 127.0.0.1.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const ws = useMailWorkspace();

/** The About sheet's lines of `file` whose label names the load, as label → value. */
async function loadLines(file: string): Promise<Map<string, string>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const lines = new Map<string, string>();
  book.getWorksheet("About")?.eachRow((row) => {
    const label = String(row.getCell(1).value);
    if (/loaded|run id/i.test(label)) lines.set(label, String(row.getCell(2).value));
  });
  return lines;
}

/** The page's line saying when its data was loaded, up to the time it was generated. */
function loadedLine(page: string): string {
  return /Data loaded: [^·]*/.exec(page)?.[0].trim() ?? "";
}

test("each share's workbook and page give the report's own load", async () => {
  await writeTeamCatalog(ws.dir, ["xlsx", "html"], ["xlsx", "html"]);
  const out = join(ws.dir, "loaded-out");
  const { run } = await ws.mailed(teamComplianceMail(), (url) => mailEnv(url, out));
  expect(run.code, run.stderr).toBe(0);
  const name = `team-compliance-${new Date().toISOString().slice(0, 10)}`;
  const whole = await loadLines(join(out, `${name}.xlsx`));
  expect(whole.get("Extract run id")).toBe("2");
  const wholePage = loadedLine(await readFile(join(out, `${name}.html`), "utf8"));
  expect(wholePage).toMatch(/^Data loaded: 2026-03-08 06:05/);
  for (const folder of ["sales.lead@example.com", "north.lead@example.com", "unassigned"]) {
    const file = join(out, "split", folder, name);
    expect(await loadLines(`${file}.xlsx`)).toEqual(whole);
    expect(loadedLine(await readFile(`${file}.html`, "utf8"))).toBe(wholePage);
  }
});
