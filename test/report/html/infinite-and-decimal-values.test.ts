/**
 * DuckDB values the HTML report and the report mail used to show wrongly: `infinity` and
 * `-infinity` dates and timestamps (a DATE read as the day 5881580-07-11, a TIMESTAMP_NS as
 * 2262-04-11) are shown as DuckDB prints them, and a DECIMAL(p,s) with its own s places rather
 * than always two, up to 15 as in the workbook, and with every digit DuckDB holds (read as a
 * double, 12345678901234567.89 showed as 12,345,678,901,234,568.00). The CLI in-process on a real
 * DuckDB file, the mail received by a real SMTP server; the CSV and XLSX of the same run are
 * written and hold the same words.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLmsDatabase } from "../../fixtures/lms-dataset.js";
import { runInProcess } from "../../helpers/in-process-cli.js";
import { tempDirForFile } from "../../helpers/temp-dir.js";
import { writeTestCatalog } from "../../helpers/test-catalog.js";
import { type SmtpFixture, startSmtp } from "../../mail/smtp-fixture.js";

const dir = tempDirForFile("lms-values-");

const TIMES = ["DATE", "TIMESTAMP", "TIMESTAMPTZ", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS"];

const VALUES = `-- title: Values
-- description: Endless times, and amounts with their own places.
SELECT label,
       ${TIMES.map((type, i) => `CAST(t AS ${type}) AS time_${i}`).join(",\n       ")},
       CAST(a AS DECIMAL(10,1)) AS one_place,
       CAST(a AS DECIMAL(18,3)) AS three_places,
       CAST(a AS DECIMAL(12,0)) AS no_places,
       CAST(a AS DOUBLE) AS measured,
       CAST(big AS DECIMAL(38,2)) AS big_amount,
       CAST(fine AS DECIMAL(38,20)) AS fine_amount,
       CAST(tiny AS DECIMAL(38,20)) AS tiny_amount,
       CAST(tiny AS DOUBLE) AS tiny_measured,
       CAST(whole AS BIGINT) AS big_id,
       CAST(whole AS HUGEINT) * 1000 AS huge_total
FROM (VALUES ('later', 'infinity', 1234567.125, '12345678901234567.89',
              '1234567.123456789012345678', '-0.0000000000000000001', '9007199254740993'),
             ('earlier', '-infinity', 0.5, '-98765432109876543.21', '-0.5', '-1', '-9223372036854775807'),
             ('real', '2026-03-10 00:00:00+00', 12.25, '0.05', '12.25', '-0.004', '42'))
     AS v(label, t, a, big, fine, tiny, whole)
`;

const REPORT = JSON.stringify({
  title: "Value sheet",
  description: "For tests.",
  queries: ["values"],
  formats: ["html", "csv", "xlsx"],
  fileName: "values",
  charts: [{ query: "values", type: "bar", x: "label", y: ["three_places"] }],
});

/** The cells after the label of each row, as the report shows them. */
const SHOWN = {
  later: [
    ...TIMES.map(() => "infinity"),
    "1,234,567.1",
    "1,234,567.125",
    "1,234,567",
    "1,234,567.13",
    "12,345,678,901,234,567.89",
    "1,234,567.123456789012346",
    // Negatives that round to zero show no minus.
    "0.000000000000000",
    "0.00",
    // Whole numbers past 2^53, which a double would round (an id without separators).
    "9007199254740993",
    "9,007,199,254,740,993,000",
  ],
  earlier: [
    ...TIMES.map(() => "-infinity"),
    "0.5",
    "0.500",
    "1",
    "0.50",
    "-98,765,432,109,876,543.21",
    "-0.500000000000000",
    "-1.000000000000000",
    "-1.00",
    "-9223372036854775807",
    "-9,223,372,036,854,775,807,000",
  ],
  real: [
    "2026-03-10",
    ...TIMES.slice(1).map(() => "2026-03-10 00:00"),
    "12.3",
    "12.250",
    "12",
    "12.25",
    "0.05",
    "12.250000000000000",
    "-0.004000000000000",
    "0.00",
    "42",
    "42,000",
  ],
};

let smtp: SmtpFixture;
let run: Awaited<ReturnType<typeof runInProcess>>;

beforeAll(async () => {
  (await createLmsDatabase({ path: join(dir, "lms.duckdb") })).close();
  await writeTestCatalog(dir, { values: VALUES }, { "value-sheet": REPORT });
  smtp = await startSmtp();
  const args = [
    "report",
    "value-sheet",
    "--catalog",
    "catalog",
    "--db",
    "lms.duckdb",
    "--out",
    "out",
  ];
  run = await runInProcess([...args, "--mail-to", "ops@example.com"], dir, {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: "reports@example.com",
    LMS_LOG_FORMAT: "json",
    LMS_QUIET: "1",
  });
  await smtp.close();
});

afterAll(async () => {
  await smtp?.close();
});

/** Each table row of an HTML text as its cells' text. */
function htmlRows(html: string): string[][] {
  return [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? "").matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((cell) => cell[1] ?? ""),
  );
}

function expectShown(rows: readonly (readonly string[])[]): void {
  for (const [label, cells] of Object.entries(SHOWN)) {
    expect(rows, label).toContainEqual([label, ...cells]);
  }
}

describe("infinite times and DECIMAL places", () => {
  test("the HTML report shows DuckDB's words and each DECIMAL's own places", async () => {
    expect(run.code, run.stderr).toBe(0);
    const html = await readFile(join(dir, "out", "values.html"), "utf8");
    expectShown(htmlRows(html));
    // A bar's tooltip reads as the table does.
    expect(html).toContain("<title>later: 1,234,567.125</title>");
  });

  test("the mail's HTML and text parts show them alike", () => {
    expect(smtp.received).toHaveLength(1);
    const parsed = smtp.received[0]?.parsed;
    expectShown(htmlRows(String(parsed?.html)));
    const lines = String(parsed?.text).split("\n");
    for (const [label, cells] of Object.entries(SHOWN)) {
      expect(lines, label).toContain([label, ...cells].join(" | "));
    }
  });

  test("the CSV and the workbook of the same run hold the words too", async () => {
    const csv = await readFile(join(dir, "out", "values.csv"), "utf8");
    expect(csv).toContain(`later,${TIMES.map(() => "infinity").join(",")},`);
    expect(csv).toContain(`earlier,${TIMES.map(() => "-infinity").join(",")},`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(join(dir, "out", "values.xlsx"));
    const [sheet] = book.worksheets;
    if (sheet === undefined) throw new Error("the workbook has no sheet");
    const row = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1, 2 + TIMES.length);
    expect(row(2)).toEqual(["later", ...TIMES.map(() => "infinity")]);
    expect(row(3)).toEqual(["earlier", ...TIMES.map(() => "-infinity")]);
    // Each DECIMAL shows its own places in Excel too, up to 15 as in the HTML; a DOUBLE keeps two.
    const formats = sheet.getRow(4).values as unknown[];
    const first = 2 + TIMES.length;
    const numFmts = [0, 1, 2, 3, 4, 5].map((i) => sheet.getCell(4, first + i).numFmt);
    expect(numFmts).toEqual([
      "#,##0.0",
      "#,##0.000",
      "#,##0",
      "#,##0.00",
      "#,##0.00",
      "#,##0.000000000000000",
    ]);
    expect(formats[first]).toBe(12.3);
    // A double cannot hold the big amount: it is text with every digit, as the CSV has it.
    expect(sheet.getCell(2, first + 4).value).toBe("12345678901234567.89");
    expect(csv).toContain(",12345678901234567.89,");
  });
});
