/**
 * The rows a split mailing keeps (src/mail/split-tables.ts), on the mail dataset's DuckDB file
 * opened read-only with file access closed, as `report --mail` opens it, and a real SMTP server
 * on 127.0.0.1: the split query runs once for the whole mailing (DuckDB's query log counts its
 * runs), and nothing kept is left once mailing ends, however it ends.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import { restrictFileAccess } from "../../src/load/file-access.js";
import { renderMailBody } from "../../src/mail/body.js";
import { mailReports } from "../../src/mail/mail-reports.js";
import { useReportToMail } from "./report-to-mail.js";
import { TOKENS_MARKER, writeTokensCatalog } from "./token-catalog.js";

const tokens = useReportToMail("tokens", {
  catalog: async (dir) => {
    await writeTokensCatalog(join(dir, "tokens-cat"));
    return join(dir, "tokens-cat");
  },
  // As `report` opens it: file access closed and settings locked, the query log on before that.
  open: async (db, outDir) => {
    const logging = await db.connect();
    await logging.run("CALL enable_logging('QueryLog')");
    logging.closeSync();
    await restrictFileAccess(db, [outDir]);
  },
});

/** Rows of `sql` on the report's database. */
async function rows(sql: string): Promise<unknown[][]> {
  const connection = await tokens.db.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowsJS();
  } finally {
    connection.closeSync();
  }
}

/** The databases attached beside the report's own (none: nothing kept is left). */
const attached = () =>
  rows(
    "SELECT database_name FROM duckdb_databases() WHERE NOT internal AND database_name <> 'lms'",
  );

/** Runs that executed the tokens query, apart from finding its columns (LIMIT 0, nothing run). */
async function tokensRuns(): Promise<string[]> {
  const logged = await rows(
    `SELECT message FROM duckdb_logs() WHERE type = 'QueryLog' AND message LIKE '%${TOKENS_MARKER}%'`,
  );
  return logged.map((row) => String(row[0])).filter((sql) => !/\)\s*LIMIT 0$/.test(sql));
}

describe("rows kept for a split mailing", () => {
  test("the split query runs once for the whole mailing, and nothing kept is left", async () => {
    await rows("CALL truncate_duckdb_logs()");
    const summary = await mailReports(tokens.db, [tokens.report], tokens.options);
    // Two managers and the rows without one: each with a CSV, a Parquet file and a body.
    expect(summary.sent).toBe(3);
    expect(await tokensRuns()).toHaveLength(1);
    expect(await attached()).toEqual([]);
  });

  test("a mailing that fails leaves nothing kept", async () => {
    const only = [{ address: "nobody@example.com", part: undefined }];
    const error = await mailReports(tokens.db, [tokens.report], { ...tokens.options, only }).catch(
      (e: unknown) => e,
    );
    expect((error as LmsExportError).code).toBe("bad-input");
    expect(await attached()).toEqual([]);
  });

  test("a mailing interrupted leaves nothing kept", async () => {
    const controller = new AbortController();
    let composed = 0;
    const error = await mailReports(tokens.db, [tokens.report], {
      ...tokens.options,
      signal: controller.signal,
      render: (input) => {
        if (++composed === 2) controller.abort();
        return renderMailBody(input);
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LmsExportError);
    expect((error as LmsExportError).code).toBe("interrupted");
    expect(await attached()).toEqual([]);
  });
});
