/**
 * The rows a message body shows: the first rows of a (possibly narrowed) query, with labels a
 * person reads and cell texts, and how many rows there are in all.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { columnLabel } from "../report/present/column-label.js";
import type { BoundQuery } from "../report/run-query.js";
import { sqlError } from "../report/sql-error.js";
import type { BodyTable } from "./body.js";
import { cellText } from "./cell-text.js";

export async function readBodyTable(
  connection: DuckDBConnection,
  bound: BoundQuery,
  limit: number,
): Promise<BodyTable> {
  try {
    const counted = await connection.runAndReadAll(
      `SELECT count(*) FROM (${bound.sql}\n) AS _lms_c`,
      bound.values,
      bound.types,
    );
    const totalRows = Number(counted.getRowsJS()[0]?.[0] ?? 0);
    const reader = await connection.runAndReadAll(
      `SELECT * FROM (${bound.sql}\n) AS _lms_r LIMIT ${Math.max(0, Math.floor(limit))}`,
      bound.values,
      bound.types,
    );
    const names = reader.columnNames();
    return {
      labels: names.map((name) => columnLabel(name)),
      rows: reader.getRowsJS().map((row) => row.map((value, i) => cellText(value, names[i] ?? ""))),
      totalRows,
    };
  } catch (error) {
    throw sqlError(error, bound.query.file, "run");
  }
}
