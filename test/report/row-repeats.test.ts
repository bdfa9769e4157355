/**
 * A report run with by_manager repeats each person's required products once per manager: the
 * workbook's About sheet and the HTML page say so, with the number of required products, instead
 * of counting the copies as items. On the hand-built dataset with its roster, plus two admins of
 * North (so its people have two managers each) and one of Sales.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";

const NOW = new Date("2026-03-10T08:00:00Z");

let dir: string;
let db: TestDatabase;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-row-repeats-"));
  db = await createLmsDatabase({ roster: true });
  const connection = await db.connect();
  await connection.run(`INSERT INTO "user" (user_id, firstname, lastname, email) VALUES
    (201, 'Sal', 'Lead', 'sales.lead@example.test'), (202, 'Nor', 'Lead', 'north.lead@example.test'),
    (204, 'Sec', 'Ond', 'b.second@example.test')`);
  await connection.run(`INSERT INTO user_grp
    (user_grp_id, user_grp_grp_id, user_grp_user_id, user_grp_group_admin) VALUES
    (21, 2, 201, 1), (22, 3, 202, 1), (24, 3, 204, 1)`);
});
afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

/** The About sheet's lines of `file`, label → value. */
async function aboutOf(file: string): Promise<Map<string, unknown>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const about = book.getWorksheet("About") as ExcelJS.Worksheet;
  const lines = new Map<string, unknown>();
  about.eachRow((row) => {
    lines.set(String(row.getCell(1).value), row.getCell(2).value);
  });
  return lines;
}

describe("rows repeated per manager", () => {
  test("the About sheet and the HTML page count the required products apart", async () => {
    const [plain] = await runReports(db, ["compliance"], {
      outDir: join(dir, "plain"),
      formats: ["xlsx"],
      now: NOW,
    });
    const [team] = await runReports(db, ["team-compliance"], {
      outDir: join(dir, "team"),
      formats: ["xlsx", "html"],
      now: NOW,
    });
    const items = plain?.rows.compliance ?? 0;
    const rows = team?.rows.compliance ?? 0;
    expect(rows).toBeGreaterThan(items);
    const plainAbout = await aboutOf(plain?.files.find((f) => f.endsWith(".xlsx")) ?? "");
    expect(plainAbout.get("Sheet compliance")).toBe(
      `${items} rows: Compliance: required products per person`,
    );
    const about = await aboutOf(team?.files.find((f) => f.endsWith(".xlsx")) ?? "");
    expect(about.get("Sheet compliance")).toBe(
      `${rows} rows, one per manager of each person (${items} required products): Compliance: required products per person`,
    );
    const html = await readFile(team?.files.find((f) => f.endsWith(".html")) ?? "", "utf8");
    expect(html).toContain(
      `${rows} rows, one per manager of each person (${items} required products).`,
    );
  });
});
