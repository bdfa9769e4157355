/**
 * CSV export through DuckDB COPY: RFC 4180 (comma, double quotes doubled, fields quoted when they
 * hold a comma, quote or line break, CRLF between records), UTF-8, a header line; NULL is an empty
 * field. Text columns are neutralised against formula injection unless that is turned off; the
 * wrapper that does it is a SELECT over the query, so it stays one streamed COPY.
 */
import { type DuckDBConnection, DuckDBTypeId } from "@duckdb/node-api";
import { quoteIdent } from "../../load/ddl.js";
import { type BoundQuery, copyQuery, describeColumns } from "../run-query.js";
import { neutraliseSql } from "./formula-injection.js";

/** COPY options for RFC 4180 CSV; DuckDB writes UTF-8 (it has no other encoding for writing). */
export const CSV_COPY_OPTIONS =
  "FORMAT csv, HEADER true, DELIMITER ',', QUOTE '\"', ESCAPE '\"', NEW_LINE '\\r\\n'";

/** Writes the query's result to `target`; answers the number of rows. */
export async function exportCsv(
  connection: DuckDBConnection,
  bound: BoundQuery,
  target: string,
  options: { neutraliseFormulas: boolean },
): Promise<number> {
  if (!options.neutraliseFormulas) {
    return copyQuery(connection, bound, target, CSV_COPY_OPTIONS);
  }
  const columns = await describeColumns(connection, bound);
  const isText = (id: DuckDBTypeId) => id === DuckDBTypeId.VARCHAR || id === DuckDBTypeId.ENUM;
  if (!columns.some((c) => isText(c.type.typeId))) {
    return copyQuery(connection, bound, target, CSV_COPY_OPTIONS);
  }
  const list = columns.map((column) => {
    const name = quoteIdent(column.name);
    if (!isText(column.type.typeId)) return name;
    const text = column.type.typeId === DuckDBTypeId.ENUM ? `CAST(${name} AS VARCHAR)` : name;
    return `${neutraliseSql(text)} AS ${name}`;
  });
  // Everything before the query stays on its first line: DuckDB's line numbers remain the file's.
  const select = `SELECT ${list.join(", ")} FROM (${bound.sql}\n) AS q`;
  return copyQuery(connection, bound, target, CSV_COPY_OPTIONS, select);
}
