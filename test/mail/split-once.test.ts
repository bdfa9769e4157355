/**
 * A split report's query runs once for the whole mailing, its rows kept for every share: against
 * a real SMTP server on 127.0.0.1 and the mail dataset, with a query giving each row a random
 * token (test/mail/token-catalog.ts). A manager's CSV, Parquet file and message body then hold
 * the same tokens (a second run of the query would give others), in the order the query gave
 * its rows; a query the kept rows could not show as it does itself is run per share instead.
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, test } from "vitest";
import { runCliIn, useMailWorkspace } from "./cli-harness.js";
import { MANAGERS } from "./mail-dataset.js";
import { writeTokensCatalog } from "./token-catalog.js";

const ws = useMailWorkspace();

/** The columns and rows of a CSV or Parquet file, every value as text. */
async function readFile(path: string): Promise<{ columns: string[]; rows: string[][] }> {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    const from = path.endsWith(".csv")
      ? "read_csv($path, header = true, all_varchar = true)"
      : "read_parquet($path)";
    const reader = await connection.runAndReadAll(`SELECT * FROM ${from}`, { path });
    const rows = reader.getRowsJS().map((row) => row.map((value) => String(value)));
    return { columns: reader.columnNames(), rows };
  } finally {
    connection.closeSync();
    db.closeSync();
  }
}

/** `tokens` (from `catalog`) mailed into `out`: the run and the messages received. */
async function mailTokens(catalog: string, out: string) {
  const smtp = await ws.smtp();
  const run = await runCliIn(
    ws.dir,
    ["report", "tokens", "--catalog", catalog, "--db", "lms.duckdb", "--out", out, "--mail"],
    { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: "reports@example.com", LMS_QUIET: "1" },
  );
  await smtp.close();
  expect(run.code, run.stderr).toBe(0);
  return smtp.received;
}

describe("a split query runs once for the mailing", () => {
  test("a manager's CSV, Parquet file and body hold the same rows, in the query's order", async () => {
    const catalog = join(ws.dir, "tokens-cat");
    await writeTokensCatalog(catalog);
    const out = join(ws.dir, "tokens-out");
    const received = await mailTokens(catalog, out);
    const whole = await readFile(join(out, "tokens.csv"));
    for (const [manager, people] of Object.entries(MANAGERS)) {
      const folder = join(out, "split", manager);
      const csv = await readFile(join(folder, "tokens.csv"));
      const parquet = await readFile(join(folder, "tokens.parquet"));
      expect(csv.columns).toEqual(["user_id", "manager_email", "token"]);
      expect(parquet.columns).toEqual(csv.columns);
      // The query's order (user_id descending), not the order of any other run or of the addresses.
      // The dataset gives one address in capitals: the split matches it whatever its case.
      const mine = whole.rows.filter((row) => row[1]?.toLowerCase() === manager);
      const order = mine.map((row) => row[0]);
      expect(csv.rows.map((row) => row[0])).toEqual(order);
      expect(new Set(order)).toEqual(new Set(people.map(String)));
      // One run of the query: the same token on each row of both files and of the body.
      expect(parquet.rows).toEqual(csv.rows);
      const body = received.find((m) => m.to.includes(manager))?.parsed.text ?? "";
      for (const [, , token] of csv.rows) expect(body).toContain(token);
    }
  });

  test("a column named like the kept rows' address column: the query is run per share", async () => {
    const catalog = join(ws.dir, "clash-cat");
    await writeTokensCatalog(catalog, ", 'mine' AS _lms_split_address");
    const out = join(ws.dir, "clash-out");
    await mailTokens(catalog, out);
    const [manager, people] = Object.entries(MANAGERS)[0] ?? ["", []];
    const csv = await readFile(join(out, "split", manager, "tokens.csv"));
    expect(csv.columns).toEqual(["user_id", "manager_email", "token", "_lms_split_address"]);
    expect(csv.rows.map((row) => Number(row[0])).sort()).toEqual([...people].sort());
    expect(csv.rows.every((row) => row[1]?.toLowerCase() === manager && row[3] === "mine")).toBe(
      true,
    );
  });
});
