/**
 * The weekly compliance workbook as a person opens it, read back with exceljs's reader (not the
 * streaming writer that wrote it): sheet order, labels, the urgency order, the highlight, page
 * setup, the About sheet's SQL names and roster lines, and the one roster warning of a run.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Logger } from "../../src/log/logger.js";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/in-process-cli.js";

const NOW = new Date("2026-03-10T08:00:00Z");

let dir: string;
let withRoster: TestDatabase;
let noRoster: TestDatabase;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-workbook-"));
  withRoster = await createLmsDatabase({ roster: true });
  noRoster = await createLmsDatabase();
});
afterAll(async () => {
  withRoster.close();
  noRoster.close();
  await rm(dir, { recursive: true, force: true });
});

function collectingLogger() {
  const warnings: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn(message) {
      warnings.push(message);
    },
    error() {},
  };
  return { logger, warnings };
}

async function weekly(db: TestDatabase, out: string) {
  const { logger, warnings } = collectingLogger();
  const [result] = await runReports(db, ["weekly-compliance"], {
    outDir: join(dir, out),
    formats: ["xlsx"],
    now: NOW,
    logger,
  });
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(result?.files[0] ?? "");
  return { book, warnings };
}

function column(sheet: ExcelJS.Worksheet, c: number): unknown[] {
  const values: unknown[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) values.push(sheet.getRow(r).getCell(c).value ?? null);
  return values;
}

function headerRow(sheet: ExcelJS.Worksheet): unknown[] {
  const row = sheet.getRow(1);
  return Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value);
}

describe("the weekly compliance workbook", () => {
  let book: ExcelJS.Workbook;
  let warnings: string[];
  beforeAll(async () => {
    ({ book, warnings } = await weekly(withRoster, "roster"));
  });

  test("summary first, then trend, then the detail", () => {
    expect(book.worksheets.map((s) => s.name)).toEqual([
      "compliance-summary",
      "compliance-trend",
      "compliance",
      "overdue-by-group",
      "access",
      "completion",
      "About",
    ]);
  });

  test("the detail: labelled headers, overdue first by days, then by last and first name", () => {
    const sheet = book.getWorksheet("compliance") as ExcelJS.Worksheet;
    expect(headerRow(sheet)).toEqual([
      "User ID",
      "First name",
      "Last name",
      "E-mail",
      "Groups",
      "Product ID",
      "Product",
      "Status",
      "Days overdue",
      "Due date",
      "Access",
      "Access granted",
      "Access expires",
      "Expires in (days)",
      "Expiring soon",
      "Certificate",
      "Attempts",
      "Best score",
      "Completed on",
      "Last activity",
      "Manager",
    ]);
    expect(column(sheet, 1)).toEqual([104, 106, 105, 105, 102, 102, 103, 103, 107, 101, 101, 108]);
    expect(column(sheet, 9)).toEqual([130, 24, 19, 9, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(column(sheet, 3)).toEqual([
      "Adams",
      "Moss",
      "Zane",
      "Zane",
      "Adams",
      "Adams",
      "Baker",
      "Baker",
      "Baker",
      "Young",
      "Young",
      null,
    ]);
    // The due date is a DATE: a real date cell shown without a time.
    const due = sheet.getRow(2).getCell(10);
    expect(due.value).toEqual(new Date("2025-10-31T00:00:00Z"));
    expect(due.numFmt).toBe("yyyy-mm-dd");
    expect(sheet.getRow(2).getCell(12).numFmt).toBe("yyyy-mm-dd hh:mm:ss"); // 09:00 in row 10
  });

  test("overdue rows are highlighted by a rule on days overdue", () => {
    const sheet = book.getWorksheet("compliance") as ExcelJS.Worksheet;
    const formats = (
      sheet as unknown as { conditionalFormattings: ExcelJS.ConditionalFormattingOptions[] }
    ).conditionalFormattings;
    expect(formats).toHaveLength(1);
    expect(formats[0]?.ref).toBe("A2:U13"); // 21 columns, 12 rows under the header
    const rule = formats[0]?.rules[0] as ExcelJS.ExpressionRuleType;
    expect(rule.type).toBe("expression");
    expect(rule.formulae).toEqual(["$I2>0"]); // column I: Days overdue
    expect(rule.style?.fill).toMatchObject({ type: "pattern", pattern: "solid" });
    // No overdue column, no highlight.
    const summary = book.getWorksheet("compliance-summary") as ExcelJS.Worksheet;
    expect(
      (summary as unknown as { conditionalFormattings?: unknown[] }).conditionalFormattings ?? [],
    ).toEqual([]);
  });

  test("every sheet prints landscape, one page wide, with its header row on every page", () => {
    for (const sheet of book.worksheets) {
      expect(sheet.pageSetup.orientation, sheet.name).toBe("landscape");
      expect(sheet.pageSetup.fitToPage, sheet.name).toBe(true);
      expect(sheet.pageSetup.fitToWidth, sheet.name).toBe(1);
      expect(sheet.pageSetup.fitToHeight, sheet.name).toBe(0);
      expect(sheet.pageSetup.printTitlesRow, sheet.name).toBe("1:1");
    }
  });

  test("summary and trend: rates as percentages, weeks as dates", () => {
    const summary = book.getWorksheet("compliance-summary") as ExcelJS.Worksheet;
    expect(headerRow(summary)).toEqual([
      "Scope",
      "Name",
      "Group ID",
      "People",
      "Required items",
      "Completed",
      "Failed",
      "Overdue",
      "Completion rate",
      "Overdue rate",
    ]);
    expect(summary.getRow(2).getCell(9).value).toBe(0.25);
    expect(summary.getRow(2).getCell(9).numFmt).toBe("0.0%");
    expect(summary.getRow(2).getCell(5).numFmt).toBe("#,##0");
    const trend = book.getWorksheet("compliance-trend") as ExcelJS.Worksheet;
    expect(headerRow(trend)).toEqual([
      "Week ending",
      "Completion rate",
      "Overdue",
      "Completed",
      "Required items",
    ]);
    expect(trend.rowCount).toBe(13);
    expect(trend.getRow(13).getCell(1).value).toEqual(new Date("2026-03-10T00:00:00Z"));
    expect(trend.getRow(13).getCell(1).numFmt).toBe("yyyy-mm-dd");
  });

  test("About: each header with its SQL name, and the people the roster lacks", () => {
    const about = book.getWorksheet("About") as ExcelJS.Worksheet;
    const rows: unknown[][] = [];
    about.eachRow((row) => {
      rows.push([1, 2, 3].map((c) => row.getCell(c).value ?? null));
    });
    expect(rows).toContainEqual(["Sheet", "Column", "SQL name"]);
    expect(rows).toContainEqual(["compliance", "Days overdue", "days_overdue"]);
    expect(rows).toContainEqual(["compliance", "E-mail", "email"]);
    expect(rows).toContainEqual(["compliance-trend", "Week ending", "week"]);
    expect(rows).toContainEqual(["People not in the roster", 2, null]); // 108 and 109
    expect(rows).toContainEqual(["Roster", "7 people", null]);
  });

  test("one warning for the run: how many people the roster lacks, and how to import one", () => {
    expect(warnings).toEqual([
      '2 of the 9 people in the data are not in the roster: their names are empty; import an up-to-date roster with "lms-export roster import FILE"',
    ]);
  });
});

describe("without a roster", () => {
  test("the reports run, names are empty, one warning says how to import one", async () => {
    const { book, warnings } = await weekly(noRoster, "bare");
    expect(warnings).toEqual([
      'no roster imported: the 9 people in the data are shown by user_id only, without names; import one with "lms-export roster import FILE"',
    ]);
    const sheet = book.getWorksheet("compliance") as ExcelJS.Worksheet;
    expect(column(sheet, 1)).toHaveLength(12);
    expect(column(sheet, 2).every((v) => v === null)).toBe(true);
  });

  test("a report that shows nobody's name does not warn", async () => {
    const { logger, warnings } = collectingLogger();
    await runReports(noRoster, ["data-freshness"], {
      outDir: join(dir, "fresh"),
      formats: ["csv"],
      now: NOW,
      logger,
    });
    expect(warnings).toEqual([]);
  });
});

describe("CSV keeps the SQL names", () => {
  test("the compliance CSV header", async () => {
    const [result] = await runReports(withRoster, ["compliance"], {
      outDir: join(dir, "csv"),
      formats: ["csv"],
      now: NOW,
    });
    const text = await readFile(result?.files[0] ?? "", "utf8");
    expect(text.split("\r\n", 1)[0]).toBe(
      "user_id,firstname,lastname,email,groups,product_id,product_title,status,days_overdue,due_date,access_state,access_granted,access_expires,expires_in_days,expiring,certificate,attempts,best_score,completed_at,last_activity,manager_email",
    );
  });
});

describe("timestamps at midnight", () => {
  test("a column whose first rows are all at midnight UTC is shown as dates, keeping the instant", async () => {
    await writeFile(
      join(dir, "days.sql"),
      `SELECT * FROM (VALUES
  (TIMESTAMP '2026-03-01 00:00:00', TIMESTAMP '2026-03-01 00:00:00'),
  (TIMESTAMP '2026-03-02 00:00:00', TIMESTAMP '2026-03-02 10:30:00'),
  (NULL, NULL)
) AS t(granted_at, seen_at)\n`,
    );
    const [result] = await runReports(withRoster, ["days.sql"], {
      outDir: join(dir, "days"),
      formats: ["xlsx"],
      now: NOW,
      cwd: dir,
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(result?.files[0] ?? "");
    const sheet = book.getWorksheet("days") as ExcelJS.Worksheet;
    expect(sheet.getRow(3).getCell(1).numFmt).toBe("yyyy-mm-dd");
    expect(sheet.getRow(3).getCell(1).value).toEqual(new Date("2026-03-02T00:00:00Z"));
    expect(sheet.getRow(3).getCell(2).numFmt).toBe("yyyy-mm-dd hh:mm:ss");
    expect(sheet.getRow(3).getCell(2).value).toEqual(new Date("2026-03-02T10:30:00Z"));
  });
});

describe("a database from before the roster", () => {
  test("a report showing names stops with one line saying how to add the table", async () => {
    const old = await createLmsDatabase();
    try {
      const c = await old.connect();
      await c.run('DROP TABLE "user"');
      await expect(
        runReports(old, ["compliance"], { outDir: join(dir, "old"), formats: ["csv"], now: NOW }),
      ).rejects.toThrow(
        /^the database has no "user" table \(it was written by an older lms-export\); run "lms-export roster import FILE" or "lms-export extract" once/,
      );
    } finally {
      old.close();
    }
  });

  test("a DuckDB file lms-export never wrote is not taken for an older lms-export's", async () => {
    const blank = join(dir, "blank.duckdb");
    const instance = await DuckDBInstance.create(blank);
    (await instance.connect()).closeSync();
    instance.closeSync();
    const run = await runCli(dir, ["report", "weekly-compliance", "--db", blank]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `lms-export: the database holds none of lms-export's tables (no "user", no _runs): if it is not the file meant, name the right one; else run "lms-export extract" to fill it\n`,
    );
  });
});
