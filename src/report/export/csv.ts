/**
 * CSV export through DuckDB COPY: RFC 4180 (comma, double quotes doubled, fields quoted when they
 * hold a comma, quote or line break, CRLF between records), UTF-8, a header line; NULL is an empty
 * field. Text columns are neutralised against formula injection unless that is turned off; the
 * wrapper that does it is a SELECT over the query, so it stays one streamed COPY.
 */
import { createReadStream, createWriteStream } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import {
  type DuckDBConnection,
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBUnionType,
} from "@duckdb/node-api";
import { quoteIdent } from "../../load/ddl.js";
import { type BoundQuery, copyQuery, describeColumns } from "../run-query.js";
import { isTextTypeId, neutraliseSql, unionTextSql } from "./formula-injection.js";
import { holdsTimestampTz, utcValuesSql } from "./utc-timestamp-sql.js";

/** COPY options for RFC 4180 CSV; DuckDB writes UTF-8 (it has no other encoding for writing). */
export const CSV_COPY_OPTIONS =
  "FORMAT csv, HEADER true, DELIMITER ',', QUOTE '\"', ESCAPE '\"', NEW_LINE '\\r\\n'";

/** The UTF-8 byte-order mark: Excel on Windows reads a CSV as UTF-8 only when it starts so. */
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Writes the query's result to `target`; answers the number of rows. With `bom` the file starts
 * with a UTF-8 byte-order mark and is otherwise the same bytes.
 */
export async function exportCsv(
  connection: DuckDBConnection,
  bound: BoundQuery,
  target: string,
  options: { neutraliseFormulas: boolean; bom?: boolean },
): Promise<number> {
  if (!options.bom) return copyCsv(connection, bound, target, options);
  // DuckDB cannot write the mark itself: COPY beside the target, then the mark and those bytes.
  const plain = `${target}.plain`;
  try {
    const rows = await copyCsv(connection, bound, plain, options);
    await writeFile(target, UTF8_BOM);
    await pipeline(createReadStream(plain), createWriteStream(target, { flags: "a" }));
    return rows;
  } finally {
    await rm(plain, { force: true });
  }
}

async function copyCsv(
  connection: DuckDBConnection,
  bound: BoundQuery,
  target: string,
  options: { neutraliseFormulas: boolean },
): Promise<number> {
  const columns = await describeColumns(connection, bound);
  // A union is written as its member's text: a text member may be a formula as any text can.
  const isText = (id: DuckDBTypeId) => isTextTypeId(id) || id === DuckDBTypeId.UNION;
  const neutralised = (type: DuckDBType) => options.neutraliseFormulas && isText(type.typeId);
  const rewritten = (type: DuckDBType) => holdsTimestampTz(type) || neutralised(type);
  if (!columns.some((c) => rewritten(c.type))) {
    return copyQuery(connection, bound, target, CSV_COPY_OPTIONS);
  }
  const list = columns.map((column) => {
    const name = quoteIdent(column.name);
    if (!rewritten(column.type)) return name;
    const text = holdsTimestampTz(column.type)
      ? utcValuesSql(column.type, name)
      : column.type.typeId === DuckDBTypeId.VARCHAR
        ? name
        : `CAST(${name} AS VARCHAR)`;
    if (!neutralised(column.type)) return `${text} AS ${name}`;
    if (column.type.typeId !== DuckDBTypeId.UNION) return `${neutraliseSql(text)} AS ${name}`;
    const textRow = unionTextSql(column.type as DuckDBUnionType, name);
    return `CASE WHEN ${textRow} THEN ${neutraliseSql(text)} ELSE ${text} END AS ${name}`;
  });
  // Everything before the query stays on its first line: DuckDB's line numbers remain the file's.
  const select = `SELECT ${list.join(", ")} FROM (${bound.sql}\n) AS q`;
  return copyQuery(connection, bound, target, CSV_COPY_OPTIONS, select);
}
