/**
 * A query file's text checked for what DuckDB's parser alone can tell: one statement, written
 * without a syntax error. It needs no table, so `run` checks its reports' queries before the
 * extract: a typo in a `.sql` file is found at once, not after a whole portal was read. Whether
 * the statement binds (its tables, columns and parameters) is bindQuery's, on the database.
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { QueryDef } from "./catalog.js";
import { sqlError } from "./sql-error.js";
import { type StatementCount, statementCount } from "./statement-count.js";
import { statementText } from "./statement-text.js";

/**
 * Throws bad input unless `sql`, of the query file `file`, holds one statement that DuckDB runs as
 * one.
 */
export async function checkOneStatement(
  connection: DuckDBConnection,
  sql: string,
  file: string,
): Promise<void> {
  let counted: StatementCount;
  try {
    counted = await statementCount(connection, sql);
  } catch (error) {
    throw sqlError(error, file, "prepare");
  }
  const count = counted.written;
  if (count !== 1) {
    throw new LmsExportError(
      "bad-input",
      count === 0
        ? `${file} holds no SQL statement after its header; write the SELECT the report runs`
        : `${file} holds ${count} SQL statements; a query file holds exactly one SELECT`,
    );
  }
  if (counted.expanded) {
    // DuckDB runs it as a CREATE TYPE, then the PIVOT: COPY and the bound parameters take one.
    throw new LmsExportError(
      "bad-input",
      `${file} has a PIVOT without an IN list, which DuckDB runs as several statements and a report cannot: name the values, e.g. PIVOT … ON status IN ('open', 'done')`,
    );
  }
}

/** Throws what checkOneStatement throws for the first of `queries` DuckDB cannot parse as one. */
export async function checkQueriesParse(queries: readonly QueryDef[]): Promise<void> {
  const instance = await DuckDBInstance.create(":memory:");
  try {
    const connection = await instance.connect();
    for (const query of new Set(queries)) {
      await checkOneStatement(connection, statementText(query.sql), query.file);
    }
  } finally {
    instance.closeSync();
  }
}
