/**
 * How many statements DuckDB finds in a text. Text without any (blank, only `;` or comments) is a
 * failure to DuckDB, with no message ("Error in native callback"): it is told apart from a syntax
 * error by DuckDB's parser itself, as the text that with one statement after it holds exactly
 * that one. A real syntax error is rethrown as DuckDB gave it, for the caller to word.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

export async function statementCount(connection: DuckDBConnection, text: string): Promise<number> {
  try {
    return (await connection.extractStatements(text)).count;
  } catch (error) {
    const probe = await connection.extractStatements(`${text}\n;SELECT 1`).catch(() => undefined);
    if (probe?.count === 1) return 0;
    throw error;
  }
}
