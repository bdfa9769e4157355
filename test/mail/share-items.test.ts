/**
 * A share of a split report whose rows repeat items (by_manager, row-repeats.ts) counts the items
 * of its own rows: the items of every spelling of an address are counted in one pass over the
 * rows kept for the mailing, and an address written two ways counts the items of both spellings
 * once. A query of its own gives rows whose counts differ per share; mailed to a real SMTP server
 * on 127.0.0.1, the workbooks read back.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

/**
 * a@ has 3 rows of 2 items, b@ 4 rows of 2 items over two spellings (item 1/10 under both), c@ 1
 * row; one row has no manager.
 */
const REPEATS_SQL = `-- title: Repeats
-- description: Rows per manager.
-- param by_manager bool = true: One row per manager.
SELECT * FROM (VALUES
  (1, 10, 'a@example.com'), (1, 10, 'a@example.com'), (2, 10, 'a@example.com'),
  (1, 10, 'B@example.com'), (1, 10, 'b@example.com'), (3, 11, 'b@example.com'), (3, 11, 'b@example.com'),
  (4, 10, 'c@example.com'), (5, 10, NULL)
) AS t(user_id, product_id, manager_email)
WHERE $by_manager OR true
ORDER BY user_id, manager_email
`;

async function writeCatalog(dir: string): Promise<void> {
  await mkdir(join(dir, "reports"), { recursive: true });
  await mkdir(join(dir, "queries"), { recursive: true });
  await writeFile(join(dir, "queries", "repeats.sql"), REPEATS_SQL);
  await writeFile(
    join(dir, "reports", "repeats-split.json"),
    JSON.stringify({
      title: "Repeats split",
      description: "Each manager's rows.",
      queries: ["repeats"],
      formats: ["xlsx"],
      fileName: "repeats",
      mail: { to: ["compliance@example.com"], splitBy: "manager_email", attach: ["xlsx"] },
    }),
  );
}

/** What the About sheet of `file` says of the sheet of query repeats. */
async function sheetLine(file: string): Promise<string> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  let line = "";
  book.getWorksheet("About")?.eachRow((row) => {
    if (String(row.getCell(1).value) === "Sheet repeats") line = String(row.getCell(2).value);
  });
  return line;
}

test("each share counts the items of its own rows", async () => {
  const catalog = join(ws.dir, "repeats-cat");
  await writeCatalog(catalog);
  const out = join(ws.dir, "repeats-out");
  const { run } = await ws.mailed(
    ["report", "repeats-split", "--catalog", catalog, "--db", "lms.duckdb", "--out", out, "--mail"],
    (url) => ({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com", LMS_QUIET: "1" }),
  );
  expect(run.code, run.stderr).toBe(0);
  const per = "one per manager of each person";
  expect(await sheetLine(join(out, "repeats.xlsx"))).toBe(
    `9 rows, ${per} (5 required products): Repeats`,
  );
  const shares: Record<string, string> = {
    "a@example.com": `3 rows, ${per} (2 required products): Repeats`,
    "b@example.com": `4 rows, ${per} (2 required products): Repeats`,
    "c@example.com": "1 row: Repeats",
    unassigned: "1 row: Repeats",
  };
  for (const [folder, line] of Object.entries(shares)) {
    expect(await sheetLine(join(out, "split", folder, "repeats.xlsx")), folder).toBe(line);
  }
});
