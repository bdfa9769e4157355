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

/** What an earlier run of a change set did with one line: the id and record the portal answered. */
export interface AppliedLine {
  readonly recordId: number | null;
  /** The record as the portal answered it (what the local table took), when it answered one. */
  readonly answer: Readonly<Record<string, unknown>> | undefined;
}

/** Lines an earlier run of this change set applied, each with the portal's last answer. */
export async function appliedLines(
  connection: DuckDBConnection,
  id: string,
): Promise<Map<number, AppliedLine>> {
  const reader = await connection.runAndReadAll(
    'SELECT line, arg_max(record_id, "time"), arg_max("after", "time")::VARCHAR FROM _changes WHERE change_set_id = $id AND outcome = \'applied\' GROUP BY line',
    { id },
  );
  return new Map(
    reader.getRows().map(([line, record, after]) => {
      const parsed: unknown = typeof after === "string" ? JSON.parse(after) : undefined;
      const answer =
        parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
          ? (parsed as Record<string, unknown>)
          : undefined;
      return [Number(line), { recordId: record === null ? null : Number(record), answer }];
    }),
  );
}

/** Records that the change set is starting, unless an earlier run started it. */
/** Whether a run of the change set `id` started before (a kill may have left a create under way). */
export async function changeSetStarted(connection: DuckDBConnection, id: string): Promise<boolean> {
  const reader = await connection.runAndReadAll(
    "SELECT EXISTS (SELECT 1 FROM _change_sets WHERE change_set_id = $id)",
    { id },
  );
  return reader.getRows()[0]?.[0] === true;
}

export async function startChangeSet(
  connection: DuckDBConnection,
  ref: ChangeSetRef,
  rows: number,
): Promise<void> {
  await connection.run(
    `INSERT INTO _change_sets SELECT $id, $file, $op, $rows::BIGINT, $at::TIMESTAMP
     WHERE NOT EXISTS (SELECT 1 FROM _change_sets WHERE change_set_id = $id)`,
    { id: ref.id, file: ref.file, op: ref.op, rows: String(rows), at: new Date().toISOString() },
  );
}

export interface OutcomeRow {
  readonly line: number;
  readonly recordId: number | null;
  readonly before: unknown;
  readonly after: unknown;
  readonly outcome: Outcome;
  readonly error: string | null;
  /** When the outcome was known, ISO 8601 UTC: with the change set and line, it names the row. */
  readonly time: string;
}

const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

/** Appends the outcomes of rows, in one statement (inside the caller's transaction). */
export async function insertOutcomes(
  connection: DuckDBConnection,
  ref: ChangeSetRef,
  rows: readonly (OutcomeRow & { readonly answered: boolean })[],
): Promise<void> {
  if (rows.length === 0) return;
  let n = 0;
  const p = () => `$${++n}`;
  const tuples = rows.map(
    () =>
      `(${p()}, ${p()}, ${p()}::BIGINT, ${p()}, ${p()}::BIGINT, ${p()}::JSON, ${p()}::JSON, ${p()}, ${p()}, ${p()}::TIMESTAMP, ${p()}::BOOLEAN)`,
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
    row.time,
    String(row.answered),
  ]);
  await connection.run(`INSERT INTO _changes VALUES ${tuples.join(", ")}`, values);
}

/**
 * Which of `rows` (change set, line, time) `_changes` does not hold yet, as their indexes: a
 * journal taken in after a kill holds outcomes its batches had already written.
 */
export async function unrecordedRows(
  connection: DuckDBConnection,
  rows: readonly { readonly set: string; readonly line: number; readonly time: string }[],
): Promise<Set<number>> {
  const fresh = new Set<number>();
  const CHUNK = 500;
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    let n = 0;
    const p = () => `$${++n}`;
    const tuples = chunk.map(() => `(${p()}::INTEGER, ${p()}, ${p()}::BIGINT, ${p()}::TIMESTAMP)`);
    const reader = await connection.runAndReadAll(
      `SELECT v.i FROM (VALUES ${tuples.join(", ")}) AS v(i, id, line, t)
       WHERE NOT EXISTS (SELECT 1 FROM _changes c WHERE c.change_set_id = v.id AND c.line = v.line AND c."time" = v.t)`,
      chunk.flatMap((row, i) => [String(start + i), row.set, String(row.line), row.time]),
    );
    for (const [i] of reader.getRows()) fresh.add(Number(i));
  }
  return fresh;
}
