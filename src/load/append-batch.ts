/**
 * Appends Arrow RecordBatches into a resource's staging table through DuckDB data chunks (at most
 * one vector size, 2,048 rows, each) and the appender, numbering every row with `_seq`.
 */

import {
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBDataChunk,
  type DuckDBType,
  DuckDBVector,
} from "@duckdb/node-api";
import { Int64, type RecordBatch, type Schema } from "apache-arrow";
import { Int64Column } from "../encode/fixed-width-column.js";
import type { ExtractedName } from "../resources/registry.js";
import { copyDirect, copyToVector, duckdbTypeIdFor } from "./arrow-to-vector.js";
import { quoteIdent } from "./ddl.js";
import { SEQ_COLUMN, stagingColumns, stagingTable } from "./staging.js";
import { columnsByTable } from "./table-columns.js";

/**
 * Writes batches of one resource into its staging table.
 * - `append(batch)`: rows get `_seq` values continuing from the largest already staged (so a
 *   resumed run's copies win over older ones); the batch's schema must be `arrowSchema(resource)`.
 * - `flush()`: makes everything appended so far durable (commits the appender's rows). Mark work
 *   done in `_checkpoint` only after a flush.
 * - `close()`: flushes and releases the appender; the writer cannot be used afterwards.
 * One writer per resource at a time (two would hand out the same `_seq` values), on a connection
 * nothing else uses concurrently.
 */
export interface StagingWriter {
  append(batch: RecordBatch): Promise<void>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

interface Plan {
  /** Per table column: index of the batch column feeding it, -1 for `_seq`. */
  readonly sources: readonly number[];
}

function planFor(
  schema: Schema,
  table: string,
  names: readonly string[],
  types: readonly DuckDBType[],
): Plan {
  const byName = new Map(schema.fields.map((field, index) => [field.name, index]));
  const sources = names.map((name, column) => {
    if (name === SEQ_COLUMN) return -1;
    const index = byName.get(name);
    const field = index === undefined ? undefined : schema.fields[index];
    if (index === undefined || !field) {
      throw new Error(`batch has no column "${name}" that staging table ${table} needs`);
    }
    const want = duckdbTypeIdFor(field.type);
    const have = types[column]?.typeId;
    if (want === undefined || want !== have) {
      throw new Error(
        `column "${name}" of ${table} is ${types[column]} but the batch holds ${field.type}; the database was written by a different version`,
      );
    }
    return index;
  });
  for (const field of schema.fields) {
    if (!names.includes(field.name)) {
      throw new Error(`staging table ${table} has no column for batch field "${field.name}"`);
    }
  }
  return { sources };
}

/**
 * Numbers rows `after + 1 .. after + count` into the BIGINT column `column` of `chunk`, through
 * an Arrow column copied in one block (a BigInt per row was a measurable share of the garbage
 * collector's work). Answers the last number used.
 */
function copySequence(
  after: number,
  count: number,
  chunk: DuckDBDataChunk,
  column: number,
): number {
  if (!Number.isSafeInteger(after + count)) throw new Error("staging row numbers ran out");
  const numbers = new Int64Column(count);
  for (let i = 0; i < count; i++) numbers.setNumber(i, after + 1 + i);
  copyDirect(numbers.toInt64Data(new Int64()), 0, count, chunk, column);
  return after + count;
}

/**
 * `stagingWriter` for any staging table shaped like `_stage_<resource>`; `known` is what the
 * caller knows of it (see StagingShape): its columns, in table order, and whether it is empty.
 */
export async function stagingWriterFor(
  connection: DuckDBConnection,
  table: string,
  known: { readonly columns?: readonly string[] | undefined; readonly empty?: boolean } = {},
): Promise<StagingWriter> {
  const names = known.columns ?? (await columnsByTable(connection, [table])).get(table) ?? [];
  if (!names.includes(SEQ_COLUMN)) throw new Error(`table ${table} is not a staging table`);
  let seq = known.empty === true ? 0 : await largestSeq(connection, table);
  const appender: DuckDBAppender = await connection.createAppender(table);
  const types = names.map((_, i) => appender.columnType(i));
  const chunkSize = DuckDBVector.standardSize();
  const plans = new WeakMap<Schema, Plan>();
  let closed = false;

  function planOf(schema: Schema): Plan {
    let plan = plans.get(schema);
    if (!plan) {
      plan = planFor(schema, table, names, types);
      plans.set(schema, plan);
    }
    return plan;
  }

  return {
    async append(batch) {
      if (closed) throw new Error(`staging writer for ${table} is closed`);
      const plan = planOf(batch.schema);
      const columns = batch.data.children;
      for (let from = 0; from < batch.numRows; from += chunkSize) {
        const count = Math.min(chunkSize, batch.numRows - from);
        const chunk = DuckDBDataChunk.create(types, count);
        plan.sources.forEach((source, column) => {
          if (source === -1) {
            seq = copySequence(seq, count, chunk, column);
            return;
          }
          const data = columns[source];
          if (!data) throw new Error(`batch column ${source} is missing`);
          if (!copyDirect(data, from, count, chunk, column)) {
            copyToVector(data, from, count, chunk.getColumnVector(column));
          }
        });
        appender.appendDataChunk(chunk);
      }
    },
    async flush() {
      if (!closed) appender.flushSync();
    },
    async close() {
      if (closed) return;
      closed = true;
      appender.closeSync();
    },
  };
}

async function largestSeq(connection: DuckDBConnection, table: string): Promise<number> {
  const max = await connection.runAndReadAll(
    `SELECT coalesce(max(${quoteIdent(SEQ_COLUMN)}), 0) FROM ${quoteIdent(table)}`,
  );
  return Number(max.getRows()[0]?.[0] ?? 0);
}

/**
 * What the caller knows of a resource's staging table, so that opening its writer asks DuckDB
 * nothing. `fresh`: created by this run from the registry, so its columns are the registry's;
 * `empty`: it holds no rows (a new run has just cleared it). Seven writers open at once when a
 * run starts; their lookups took 10-20 ms together before the first request could go out.
 */
export interface StagingShape {
  readonly fresh?: boolean;
  readonly empty?: boolean;
}

/** Opens a writer appending into `_stage_<resource>`. */
export function stagingWriter(
  connection: DuckDBConnection,
  resource: ExtractedName,
  shape: StagingShape = {},
): Promise<StagingWriter> {
  return stagingWriterFor(connection, stagingTable(resource), {
    columns: shape.fresh === true ? stagingColumns(resource) : undefined,
    empty: shape.empty,
  });
}
