/**
 * The rows of a split report's queries, kept for the length of a mailing so that each query runs
 * once, not once per recipient and format: every share's files and message body read their rows
 * from the kept table (split.ts narrows it), which holds the query's rows in the order it gave
 * them, with their address as written (trimmed) in a column of its own.
 *
 * Why a database attached for the mailing and not TEMP tables: a TEMP table belongs to the
 * connection that made it, and a share is written over several connections (a workbook streams
 * each sheet on its own). An attached database belongs to the instance, so every connection sees
 * it. `ATTACH ':memory:' ... (READ_WRITE)` is accepted by an instance opened read-only, and after
 * restrictFileAccess has closed file access and locked the configuration (checked on DuckDB
 * 1.5.6); rows past the memory limit spill to DuckDB's temporary folder like any query's.
 *
 * A query whose rows cannot be kept (memory and temporary space exhausted, or a table that would
 * not show the query's own column names and types) is run again for each share, as it would be
 * without this: slower, never different.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { errorFirstLine, errorText } from "../errors/error-text.js";
import { quoteIdent } from "../load/ddl.js";
import type { Logger } from "../log/logger.js";
import type { ReportSource } from "../report/report-source.js";
import { itemsPerValue } from "../report/row-repeats.js";
import type { BoundQuery, ColumnInfo } from "../report/run-query.js";
import { ADDRESS, type SplitSource, spelled } from "./split.js";

/** Mailings of this process so far: each attaches under a name of its own. */
let mailings = 0;

/** Column names and types as the files show them, to compare a kept table with its query. */
function shape(columns: readonly ColumnInfo[]): string {
  return JSON.stringify(columns.map((c) => [c.name, c.type.toString()]));
}

export class SplitTables {
  #alias: string | undefined;
  #tables = 0;

  constructor(
    private readonly db: ReportSource,
    private readonly logger: Logger,
  ) {}

  /**
   * `bound` as its shares read it: its rows kept in a table when they can be, the query alone
   * otherwise. Contract: throws only once `signal` has fired (the statement it stopped failed);
   * any other failure to keep the rows is logged and answered with the query alone.
   */
  async keep(
    connection: DuckDBConnection,
    bound: BoundQuery,
    split: { column: string; columns: readonly ColumnInfo[] },
    signal?: AbortSignal,
  ): Promise<SplitSource> {
    let table: string;
    try {
      table = await this.#create(connection, bound, split.column, split.columns);
    } catch (error) {
      this.#doWithout(
        error,
        signal,
        bound,
        "rows not kept for the mailing: each recipient's share runs the query",
      );
      return { bound, table: undefined };
    }
    const items = await this.#items(connection, bound, table, signal);
    return { bound, table, ...(items && { items }) };
  }

  /**
   * The items of each spelling's kept rows when the query's rows repeat them (row-repeats.ts),
   * so that a share's count needs no pass of its own; a failure is logged and each share counts
   * its own rows, as it would without this.
   */
  async #items(
    connection: DuckDBConnection,
    bound: BoundQuery,
    table: string,
    signal: AbortSignal | undefined,
  ): Promise<ReadonlyMap<string, number> | undefined> {
    const kept = { ...bound, sql: `SELECT * FROM ${table}`, values: {}, types: {} };
    try {
      return await itemsPerValue(connection, kept, ADDRESS);
    } catch (error) {
      this.#doWithout(
        error,
        signal,
        bound,
        "items not counted for the mailing: each recipient's share counts its own",
      );
      return undefined;
    }
  }

  /**
   * A step the mailing can do without failed: rethrows once `signal` has fired (the failure is
   * the interruption's), else logs `what` is done instead, with the first line of the failure.
   */
  #doWithout(error: unknown, signal: AbortSignal | undefined, bound: BoundQuery, what: string) {
    if (signal?.aborted) throw error;
    this.logger.info(what, {
      query: bound.query.name,
      reason: errorFirstLine(error),
    });
  }

  /** Drops every kept table; a failure is logged, never thrown (the mailing's outcome stands). */
  async close(): Promise<void> {
    const alias = this.#alias;
    if (alias === undefined) return;
    this.#alias = undefined;
    try {
      const connection = await this.db.connect();
      try {
        await connection.run(`DETACH DATABASE IF EXISTS ${quoteIdent(alias)}`);
      } finally {
        connection.closeSync();
      }
    } catch (error) {
      this.logger.warn("the rows kept for the mailing could not be dropped", {
        error: errorText(error),
      });
    }
  }

  /** The kept table of `bound`, whose own columns (as narrowing shows them) are `columns`. */
  async #create(
    connection: DuckDBConnection,
    bound: BoundQuery,
    column: string,
    columns: readonly ColumnInfo[],
  ): Promise<string> {
    const alias = await this.#attach(connection);
    const table = `${quoteIdent(alias)}.main.${quoteIdent(`q${++this.#tables}`)}`;
    // The query keeps its first line as the statement's, so DuckDB's line numbers stay the file's.
    await connection.run(
      `CREATE TABLE ${table} AS SELECT *, ${spelled(column)} AS ${quoteIdent(ADDRESS)} FROM (${bound.sql}\n) AS _lms_q`,
      bound.values,
      bound.types,
    );
    const kept = await connection.run(
      `SELECT * EXCLUDE (${quoteIdent(ADDRESS)}) FROM ${table} LIMIT 0`,
    );
    const keptColumns = kept.columnNames().map((name, i) => ({ name, type: kept.columnType(i) }));
    if (shape(keptColumns) !== shape(columns)) {
      await connection.run(`DROP TABLE ${table}`);
      throw new Error(`its columns would read ${shape(keptColumns)} instead of ${shape(columns)}`);
    }
    return table;
  }

  async #attach(connection: DuckDBConnection): Promise<string> {
    if (this.#alias !== undefined) return this.#alias;
    const alias = `_lms_mail_${++mailings}`;
    await connection.run(`ATTACH ':memory:' AS ${quoteIdent(alias)} (READ_WRITE)`);
    this.#alias = alias;
    return alias;
  }
}
