/**
 * Running one query with its parameters bound by DuckDB: checks (one SELECT statement, every
 * `$name` declared in the header), then the ways the exporters consume it: a streamed result
 * (Excel, the `sql` command) or `COPY (query) TO (file)` (Parquet, CSV).
 *
 * Why COPY keeps parameters bound: DuckDB binds prepared-statement parameters anywhere inside
 * `COPY (<query>) TO ...`'s query (duckdb/duckdb#3572 shows it since 0.3; checked on 1.5.6), and
 * since 1.4 the target may be an expression in brackets, including a parameter
 * (duckdb/duckdb#18795). A bare `TO ?` is a parser error (#10697) and on some versions an IO error
 * (#21578), so the target is written `TO ($_lms_target)`. Neither values nor the file name are ever
 * pasted into SQL text, and no temporary table is needed: the query is streamed straight into the
 * file, which keeps COPY at its native speed.
 */
import {
  type DuckDBConnection,
  DuckDBListValue,
  type DuckDBResult,
  type DuckDBType,
  type DuckDBValue,
  StatementType,
  VARCHAR,
} from "@duckdb/node-api";
import { LmsExportError } from "../errors/lms-export-error.js";
import { CAUSE_UNKNOWN, withCompletionCheck } from "../load/stream-completion.js";
import type { QueryDef } from "./catalog.js";
import { runWatched } from "./interruption.js";
import { PARAM_DUCKDB_TYPES, type ParamType, type ResolvedParams } from "./params.js";
import { checkOneStatement } from "./query-syntax.js";
import { sqlError } from "./sql-error.js";
import { statementText } from "./statement-text.js";

/** The name the exporters bind the output file to; header names must start with a letter. */
const TARGET = "_lms_target";

/** A result column: its name and DuckDB type. */
export interface ColumnInfo {
  readonly name: string;
  readonly type: DuckDBType;
}

/**
 * A checked query with its parameter values: `sql` is the statement (one SELECT, trailing `;`
 * removed, lines unchanged); `values`/`types` hold exactly the parameters it uses.
 */
export interface BoundQuery {
  readonly query: QueryDef;
  readonly sql: string;
  readonly values: Record<string, DuckDBValue>;
  readonly types: Record<string, DuckDBType>;
  readonly params: ResolvedParams;
}

/** A parameter of a report as its settings show it: described by its first query's header. */
export interface ReportParam {
  readonly name: string;
  readonly description: string;
  readonly type: ParamType;
  readonly text: string;
  /** A list's items apart: `text` joins them by commas, and an item may hold one itself. */
  readonly items?: readonly string[];
}

/**
 * Each parameter of the report's queries once, with its value and its description in the first
 * query that declares it: queries of one report share parameters, which the report shows once.
 */
export function reportParams(bound: readonly BoundQuery[]): ReportParam[] {
  const seen = new Map<string, ReportParam>();
  for (const b of bound) {
    for (const [name, value] of b.params) {
      if (seen.has(name)) continue;
      const description = b.query.params.find((p) => p.name === name)?.description ?? "";
      const list = value.value instanceof DuckDBListValue ? value.value.items : undefined;
      const items = list && { items: list.map(String) };
      seen.set(name, { name, description, type: value.type, text: value.text, ...items });
    }
  }
  return [...seen.values()];
}

/**
 * Checks `query` on `connection` and pairs it with `params`. Throws bad input (with file and
 * line) when the file holds no or several statements, is not a SELECT, fails to prepare, or uses a
 * `$name` its header does not declare.
 */
export async function bindQuery(
  connection: DuckDBConnection,
  query: QueryDef,
  params: ResolvedParams,
): Promise<BoundQuery> {
  const sql = statementText(query.sql);
  await checkOneStatement(connection, sql, query.file);
  let prepared: Awaited<ReturnType<DuckDBConnection["prepare"]>>;
  try {
    prepared = await connection.prepare(sql);
  } catch (error) {
    throw sqlError(error, query.file, "prepare");
  }
  try {
    if (prepared.statementType !== StatementType.SELECT) {
      throw new LmsExportError(
        "bad-input",
        `${query.file} is not a SELECT query; reports only read the database`,
      );
    }
    const values: Record<string, DuckDBValue> = {};
    const types: Record<string, DuckDBType> = {};
    for (let index = 1; index <= prepared.parameterCount; index++) {
      const name = prepared.parameterName(index);
      const value = params.get(name);
      if (value === undefined) {
        const declared = query.params.map((p) => p.name).join(", ") || "none";
        throw new LmsExportError(
          "bad-input",
          /^\d+$/.test(name) || name === ""
            ? `${query.file} uses a positional parameter (? or $${name}); use $name parameters declared in its header`
            : `${query.file} uses $${name}, which its header does not declare (declared: ${declared}); add "-- param ${name} TYPE = DEFAULT: description"`,
        );
      }
      values[name] = value.value;
      types[name] = PARAM_DUCKDB_TYPES[value.type];
    }
    return { query, sql, values, types, params };
  } finally {
    prepared.destroySync();
  }
}

/** The result's columns, found by planning the query with LIMIT 0 (nothing is computed). */
export async function describeColumns(
  connection: DuckDBConnection,
  bound: BoundQuery,
): Promise<ColumnInfo[]> {
  try {
    const result = await connection.run(
      `SELECT * FROM (${bound.sql}\n) LIMIT 0`,
      bound.values,
      bound.types,
    );
    return result.columnNames().map((name, i) => ({ name, type: result.columnType(i) }));
  } catch (error) {
    throw sqlError(error, bound.query.file, "run");
  }
}

/**
 * Streams the result into `read`, which must call `atEnd` with the rows it read once the stream
 * ends: `atEnd` throws when the query failed part-way, which the stream itself does not say (see
 * stream-completion.ts). The connection is one opened for this stream, in no transaction, and
 * must not run anything else until then (another statement silently ends the stream).
 */
export async function streamQuery<T>(
  connection: DuckDBConnection,
  bound: BoundQuery,
  read: (result: DuckDBResult, atEnd: (rows: number) => Promise<void>) => Promise<T>,
): Promise<T> {
  return withCompletionCheck(
    connection,
    async (completed) => {
      let result: DuckDBResult;
      try {
        result = await runWatched(connection, () =>
          connection.startStream(bound.sql, bound.values, bound.types),
        );
      } catch (error) {
        throw sqlError(error, bound.query.file, "run");
      }
      return read(result, async (rows) => {
        if (await completed()) return;
        throw new LmsExportError(
          "query-failed",
          `query failed: ${bound.query.file}: the query failed after ${rows} row${rows === 1 ? "" : "s"} (${CAUSE_UNKNOWN})`,
        );
      });
    },
    { fresh: true },
  );
}

/**
 * `COPY (select) TO (file) (options)`: `select` defaults to the query itself; exporters pass a
 * wrapping SELECT that keeps the query's first line on its own first line. `options` is fixed
 * text from the exporter, never user input. Answers the number of rows written.
 */
export async function copyQuery(
  connection: DuckDBConnection,
  bound: BoundQuery,
  target: string,
  options: string,
  select: string = bound.sql,
): Promise<number> {
  try {
    const result = await runWatched(connection, () =>
      connection.start(
        `COPY (${select}\n) TO ($${TARGET}) (${options})`,
        { ...bound.values, [TARGET]: target },
        { ...bound.types, [TARGET]: VARCHAR },
      ),
    );
    const rows = await result.getRowsJS();
    return Number(rows[0]?.[0] ?? result.rowsChanged);
  } catch (error) {
    throw sqlError(error, bound.query.file, "run");
  }
}
