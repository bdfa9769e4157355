/**
 * `_change_sets` and `_changes`: what each `apply` did, row by row. A change set is a file's
 * sha256 with the operation, so running the same command again finds the rows already applied.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { ApplyOp } from "./ops.js";

export type Outcome = "applied" | "unchanged" | "failed" | "skipped";

export interface ChangeSetRef {
  readonly id: string;
  readonly file: string;
  readonly op: ApplyOp;
}

export function changeSetId(sha256: string, op: ApplyOp): string {
  return `${sha256}:${op}`;
}

/** Lines an earlier run of this change set applied, with the id the portal answered. */
export async function appliedLines(
  connection: DuckDBConnection,
  id: string,
): Promise<Map<number, number | null>> {
  const reader = await connection.runAndReadAll(
    "SELECT line, arg_max(record_id, \"time\") FROM _changes WHERE change_set_id = $id AND outcome = 'applied' GROUP BY line",
    { id },
  );
  return new Map(
    reader
      .getRows()
      .map(([line, record]) => [Number(line), record === null ? null : Number(record)]),
  );
}

/**
 * Records that the change set is starting and answers whether an earlier run had started it: then
 * a create may have reached the portal without its answer being stored.
 */
export async function startChangeSet(
  connection: DuckDBConnection,
  ref: ChangeSetRef,
  rows: number,
): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    "SELECT count(*) FROM _change_sets WHERE change_set_id = $id",
    { id: ref.id },
  );
  if (Number(reader.getRows()[0]?.[0] ?? 0) > 0) return true;
  await connection.run(
    "INSERT INTO _change_sets VALUES ($id, $file, $op, $rows::BIGINT, now()::TIMESTAMP)",
    { id: ref.id, file: ref.file, op: ref.op, rows: String(rows) },
  );
  return false;
}

export interface OutcomeRow {
  readonly line: number;
  readonly recordId: number | null;
  readonly before: unknown;
  readonly after: unknown;
  readonly outcome: Outcome;
  readonly error: string | null;
}

const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

/** Appends the outcomes of rows, in one statement (inside the caller's transaction). */
export async function insertOutcomes(
  connection: DuckDBConnection,
  ref: ChangeSetRef,
  rows: readonly OutcomeRow[],
): Promise<void> {
  if (rows.length === 0) return;
  let n = 0;
  const p = () => `$${++n}`;
  const tuples = rows.map(
    () =>
      `(${p()}, ${p()}, ${p()}::BIGINT, ${p()}, ${p()}::BIGINT, ${p()}::JSON, ${p()}::JSON, ${p()}, ${p()}, now()::TIMESTAMP)`,
  );
  const values = rows.flatMap((row) => [
    ref.id,
    ref.file,
    String(row.line),
    ref.op,
    row.recordId === null ? null : String(row.recordId),
    json(row.before),
    json(row.after),
    row.outcome,
    row.error,
  ]);
  await connection.run(`INSERT INTO _changes VALUES ${tuples.join(", ")}`, values);
}
