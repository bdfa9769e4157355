/**
 * How many statements a text holds. Text without any (blank, only `;` or comments) is a failure
 * to DuckDB, with no message ("Error in native callback"): it is told apart from a syntax error by
 * DuckDB's parser itself, as the text that with one statement after it holds exactly that one. A
 * real syntax error is rethrown as DuckDB gave it, for the caller to word.
 *
 * DuckDB's parser also answers more statements than were written for a PIVOT without an IN list:
 * it runs one as a CREATE TYPE of the values it finds, then the PIVOT over that type (one CREATE
 * per such column). Counted as they are, `PIVOT t ON k USING sum(v)` read as two statements and
 * was refused. So when DuckDB finds several, the text is tried as a sub-query: only one query
 * parses there, as no `;` does, so a text that does holds one statement as written, the others
 * DuckDB's own. A text of two statements still counts two, and is still refused: a second
 * statement never runs unseen.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { statementText } from "./statement-text.js";

/** The statements of a text as written, and whether DuckDB runs the one written as several. */
export interface StatementCount {
  /** Statements written: 0 for a text of blanks, `;` and comments only. */
  readonly written: number;
  /** Whether DuckDB runs the one statement written as several of its own (a PIVOT without IN). */
  readonly expanded: boolean;
}

export async function statementCount(
  connection: DuckDBConnection,
  text: string,
): Promise<StatementCount> {
  let found: number;
  try {
    found = (await connection.extractStatements(text)).count;
  } catch (error) {
    const probe = await connection.extractStatements(`${text}\n;SELECT 1`).catch(() => undefined);
    if (probe?.count === 1) return { written: 0, expanded: false };
    throw error;
  }
  if (found > 1 && (await oneQuery(connection, text))) return { written: 1, expanded: true };
  return { written: found, expanded: false };
}

/** Whether `text` parses as one sub-query: a single query, with no `;` but a final one. */
async function oneQuery(connection: DuckDBConnection, text: string): Promise<boolean> {
  const wrapped = `SELECT * FROM (${statementText(text)}\n)`;
  return connection.extractStatements(wrapped).then(
    () => true,
    () => false,
  );
}
