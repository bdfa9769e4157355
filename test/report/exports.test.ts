/**
 * Every export format read back by a reader that is not the writer (DuckDB's read_parquet and
 * read_csv, exceljs's workbook reader) and compared with the query's own result, types included.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadCatalog } from "../../src/report/catalog.js";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";

const CATALOG = join(import.meta.dirname, "../fixtures/catalog");
const NOW = new Date("2026-03-10T08:00:00Z");

let db: TestDatabase;
let conn: DuckDBConnection;
let dir: string;

beforeAll(async () => {
  db = await createLmsDatabase({ empty: true });
  conn = await db.connect();
  dir = await mkdtemp(join(tmpdir(), "lms-exports-"));
});
afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

/** The query's result as DuckDB gives it: column types and JS values. */
async function queryResult(name: string, n = 100) {
  const catalog = await loadCatalog(CATALOG);
  const sql = catalog.queries.get(name)?.sql.replace(/;\s*$/, "") ?? "";
  const reader = await conn.runAndReadAll(sql, { n: BigInt(n) });
  return {
    names: reader.columnNames(),
    types: reader.columnTypes().map(String),
    rows: reader.getRowsJS(),
  };
}

async function readBack(sql: string) {
  const reader = await conn.runAndReadAll(sql);
  return {
    names: reader.columnNames(),
    types: reader.columnTypes().map(String),
    rows: reader.getRowsJS(),
  };
}

/** Text cells as the neutralised exports write them (written out here, not by the exporter). */
const NEUTRALISED_LABELS = [
  "plain",
  `'=HYPERLINK("http://x.test","y")`,
  "'+cmd",
  "'-2",
  "'@SUM(A1)",
  "'\ttab",
  'a,"b"\nc',
  "é€ 日本",
  "'\rcr",
];

describe("Parquet and CSV", () => {
  test("Parquet keeps every type and value", async () => {
    const out = join(dir, "pq");
    const [result] = await runReports(db, ["mixed-types"], {
      outDir: out,
      formats: ["parquet"],
      catalogRoot: CATALOG,
      now: NOW,
    });
    expect(result?.files).toEqual([join(out, "mixed-types-2026-03-10.parquet")]);
    expect(result?.rows).toEqual({ "mixed-types": 9 });
    const back = await readBack(
      `SELECT * FROM read_parquet('${join(out, "mixed-types-2026-03-10.parquet")}')`,
    );
    expect(back).toEqual(await queryResult("mixed-types"));
    const codec = await conn.runAndReadAll(
      `SELECT DISTINCT compression FROM parquet_metadata('${join(out, "mixed-types-2026-03-10.parquet")}')`,
    );
    expect(codec.getRowsJS()).toEqual([["ZSTD"]]);
  });

  test("CSV without neutralisation reads back equal, types included", async () => {
    const out = join(dir, "csv-raw");
    await runReports(db, ["mixed-types"], {
      outDir: out,
      formats: ["csv"],
      catalogRoot: CATALOG,
      now: NOW,
      neutraliseFormulas: false,
    });
    const file = join(out, "mixed-types-2026-03-10.csv");
    const back = await readBack(`SELECT * FROM read_csv('${file}')`);
    expect(back).toEqual(await queryResult("mixed-types"));
    const text = await readFile(file, "utf8");
    expect(text.startsWith("id,label,score,pass_rate,day,happened_at,flag,delta\r\n")).toBe(true);
    expect(text).toContain('7,"a,""b""\nc",5.5,');
  });

  test("CSV neutralises text cells and never numbers", async () => {
    const out = join(dir, "csv");
    await runReports(db, ["mixed-types"], {
      outDir: out,
      formats: ["csv"],
      catalogRoot: CATALOG,
      now: NOW,
    });
    const file = join(out, "mixed-types-2026-03-10.csv");
    const back = await readBack(`SELECT * FROM read_csv('${file}')`);
    const expected = await queryResult("mixed-types");
    expect(back.types).toEqual(expected.types);
    expect(back.rows.map((r) => r[1])).toEqual(NEUTRALISED_LABELS);
    // Everything but the label column is exactly the query's, negative numbers included.
    const strip = (rows: unknown[][]) => rows.map((r) => r.filter((_, c) => c !== 1));
    expect(strip(back.rows)).toEqual(strip(expected.rows));
    expect(await readFile(file, "utf8")).toContain(
      "\r\n1,plain,2.5,0.25,2026-03-05,2026-03-05 10:22:13,true,-5\r\n",
    );
  });
});

async function readWorkbook(file: string) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  return book;
}

/**
 * XML turns a carriage return in text into a line feed when it is read (end-of-line handling), in
 * Excel as in exceljs: the one change text undergoes in a workbook.
 */
const xmlText = (value: unknown) =>
  typeof value === "string" ? value.replaceAll("\r", "\n") : value;

function sheetValues(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const values: unknown[] = [];
    for (let c = 1; c <= sheet.columnCount; c++) {
      const v = row.getCell(c).value;
      values.push(v === undefined ? null : v);
    }
    rows.push(values);
  });
  return rows;
}

describe("Excel", () => {
  test("a sheet per query, real cells, formats, header, About", async () => {
    const out = join(dir, "xlsx");
    const [result] = await runReports(db, ["mixed"], {
      outDir: out,
      formats: ["xlsx"],
      catalogRoot: CATALOG,
      now: NOW,
    });
    expect(result?.files).toEqual([join(out, "mixed-2026-03-10.xlsx")]);
    expect(result?.rows).toEqual({ "mixed-types": 9, series: 9 });
    const book = await readWorkbook(join(out, "mixed-2026-03-10.xlsx"));
    expect(book.worksheets.map((s) => s.name)).toEqual(["mixed-types", "series", "About"]);

    const sheet = book.getWorksheet("mixed-types") as ExcelJS.Worksheet;
    const [header, ...data] = sheetValues(sheet);
    const expected = await queryResult("mixed-types", 9);
    // Headers are labels a person reads; the About sheet keeps the SQL names.
    expect(expected.names).toEqual([
      "id",
      "label",
      "score",
      "pass_rate",
      "day",
      "happened_at",
      "flag",
      "delta",
    ]);
    expect(header).toEqual([
      "ID",
      "Label",
      "Score",
      "Pass rate",
      "Day",
      "Happened at",
      "Flag",
      "Delta",
    ]);
    // BIGINT becomes a number, DOUBLE a number, DATE/TIMESTAMP a Date (UTC), BOOLEAN a boolean,
    // text neutralised; NULL an empty cell.
    const want = expected.rows.map((row, r) =>
      row.map((v, c) =>
        c === 1 ? xmlText(NEUTRALISED_LABELS[r]) : typeof v === "bigint" ? Number(v) : v,
      ),
    );
    expect(data).toEqual(want);
    expect(typeof data[0]?.[0]).toBe("number");
    expect(data[0]?.[4]).toBeInstanceOf(Date);
    expect(data[0]?.[7]).toBe(-5);

    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();
    const numFmt = (c: number) => sheet.getRow(2).getCell(c).numFmt;
    expect(numFmt(1)).toBe("0");
    expect(numFmt(3)).toBe("#,##0.00");
    expect(numFmt(4)).toBe("0.0%");
    expect(numFmt(5)).toBe("yyyy-mm-dd");
    expect(numFmt(6)).toBe("yyyy-mm-dd hh:mm:ss");
    expect(numFmt(8)).toBe("#,##0");
    // exceljs leaves out a width equal to Excel's default (9).
    const widths = sheet.columns.map((col) => col.width ?? 9);
    expect(widths.every((w) => w >= 8 && w <= 62)).toBe(true);
    expect(widths[1]).toBeGreaterThan(widths[0] ?? 0); // the label column is wider than the id

    const about = sheetValues(book.getWorksheet("About") as ExcelJS.Worksheet);
    const aboutMap = new Map(about.map((r) => [r[0], r[1]]));
    expect(aboutMap.get("Report")).toBe("mixed");
    expect(aboutMap.get("Generated at (UTC)")).toEqual(NOW);
    expect(aboutMap.get("Parameter n")).toBe("9");
    expect(aboutMap.get("Extract run id")).toBe("none");
    expect(aboutMap.get("Sheet series")).toBe("9 rows: Series");
  });

  test("with neutralisation off, text is written as it is", async () => {
    const out = join(dir, "xlsx-raw");
    await runReports(db, ["mixed-types"], {
      outDir: out,
      formats: ["xlsx"],
      catalogRoot: CATALOG,
      now: NOW,
      neutraliseFormulas: false,
    });
    const book = await readWorkbook(join(out, "mixed-types-2026-03-10.xlsx"));
    const [, ...data] = sheetValues(book.getWorksheet("mixed-types") as ExcelJS.Worksheet);
    const expected = await queryResult("mixed-types");
    expect(data.map((r) => r[1])).toEqual(expected.rows.map((r) => xmlText(r[1])));
    // A string cell is never a formula, even unneutralised.
    expect(data.every((r) => typeof r[1] === "string")).toBe(true);
  });

  test("a sheet continues on a new one past the row limit", async () => {
    const out = join(dir, "split");
    await runReports(db, ["series"], {
      outDir: out,
      formats: ["xlsx"],
      catalogRoot: CATALOG,
      now: NOW,
      params: { n: "10" },
      maxRowsPerSheet: 4, // header + 3 data rows per sheet
    });
    const book = await readWorkbook(join(out, "series-2026-03-10.xlsx"));
    expect(book.worksheets.map((s) => s.name)).toEqual([
      "series",
      "series (2)",
      "series (3)",
      "series (4)",
      "About",
    ]);
    const ids = book.worksheets.slice(0, 4).map((s) => {
      const [header, ...rows] = sheetValues(s);
      expect(header).toEqual(["ID", "Label", "Half"]);
      return rows.map((r) => r[0]);
    });
    expect(ids).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]);
  });

  test("an empty result is a sheet with its header only", async () => {
    const out = join(dir, "empty");
    await runReports(db, ["series"], {
      outDir: out,
      formats: ["xlsx"],
      catalogRoot: CATALOG,
      now: NOW,
      params: { n: "0" },
    });
    const book = await readWorkbook(join(out, "series-2026-03-10.xlsx"));
    expect(sheetValues(book.getWorksheet("series") as ExcelJS.Worksheet)).toEqual([
      ["ID", "Label", "Half"],
    ]);
  });
});

describe("Excel's cell limit", () => {
  test("text past 32,767 characters is cut to fit, whole in the CSV, and the About sheet says so", async () => {
    await writeFile(
      join(dir, "long.sql"),
      // The second value has a surrogate pair where the cut falls: it is cut before the pair.
      "-- title: Long text\nSELECT repeat('ab', 20000) AS body, repeat('x', 32765) || '😀' || 'yyy' AS pair\n",
    );
    const out = join(dir, "long");
    await runReports(db, ["long.sql"], {
      outDir: out,
      formats: ["xlsx", "csv"],
      cwd: dir,
      now: NOW,
    });
    const book = await readWorkbook(join(out, "long-2026-03-10.xlsx"));
    const [, row] = sheetValues(book.worksheets[0] as ExcelJS.Worksheet);
    expect(row?.map((v) => String(v).length)).toEqual([32_767, 32_766]);
    expect(String(row?.[0]).endsWith("ab…")).toBe(true);
    expect(String(row?.[1]).endsWith("x…")).toBe(true);
    const about = sheetValues(book.getWorksheet("About") as ExcelJS.Worksheet);
    expect(about.find((r) => r[0] === "Text cut to fit")?.[1]).toMatch(/^2 cells held more/);
    const csv = await readFile(join(out, "long-2026-03-10.csv"), "utf8");
    expect(csv).toContain("ab".repeat(20_000));
  });
});

describe("temporary files and renames", () => {
  test("a failing run leaves the previous files untouched and no temporary file", async () => {
    const out = join(dir, "keep");
    const first = await runReports(db, ["keep"], { outDir: out, catalogRoot: CATALOG, now: NOW });
    expect(first[0]?.files.map((f) => f.slice(out.length + 1)).sort()).toEqual([
      "keep.csv",
      "keep.parquet",
      "keep.xlsx",
    ]);
    const before = await Promise.all(
      ["keep.csv", "keep.parquet", "keep.xlsx"].map((f) => readFile(join(out, f))),
    );
    for (const format of ["xlsx", "csv", "parquet"] as const) {
      await expect(
        runReports(db, ["keep"], {
          outDir: out,
          catalogRoot: CATALOG,
          now: NOW,
          formats: [format],
          params: { fail_at: "3000" },
        }),
      ).rejects.toThrow(
        /^query failed: queries\/failing\.sql: Invalid Input Error: stopped at row 3000$/,
      );
    }
    expect((await readdir(out)).sort()).toEqual(["keep.csv", "keep.parquet", "keep.xlsx"]);
    const after = await Promise.all(
      ["keep.csv", "keep.parquet", "keep.xlsx"].map((f) => readFile(join(out, f))),
    );
    expect(after).toEqual(before);
  });

  test("a name cannot write outside the output folder", async () => {
    const catalog = await loadCatalog(CATALOG);
    const keep = catalog.reports.get("keep");
    if (!keep) throw new Error("fixture missing");
    catalog.reports.set("escape", { ...keep, name: "escape", fileName: "../../escaped-{date}" });
    const out = join(dir, "confined", "out");
    await expect(
      runReports(db, ["escape"], { outDir: out, catalog, now: NOW, formats: ["csv"] }),
    ).rejects.toThrow(/refusing to write .*must stay inside/);
    expect(await readdir(join(dir, "confined"))).toEqual(["out"]);
    expect(await readdir(out)).toEqual([]);
  });
});
