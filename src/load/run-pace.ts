/**
 * The pace of a run in `_runs` (columns RUN_PACE_COLUMNS of meta-ddl.ts): the range and the last
 * value of the limit on requests in flight, and the portal's "too busy" answers.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type AttemptFigures, RUN_PACE_TABLE, type RunPace } from "./pace-journal.js";
import { inSide } from "./side-file.js";

/**
 * Per run, its pace over every attempt: the side file's saves (src/load/pace-journal.ts), and
 * `current`'s figures, the latest. Each attempt's count only grows, so its largest is its total,
 * and the run's total is their sum; the final value is the latest attempt's.
 */
function foldedPaceSql(side: string): string {
  return `SELECT run_id,
       min(lowest) AS lowest, max(highest) AS highest,
       arg_max(final, saved_at) AS final, sum(overloads) AS overloads
     FROM (
       SELECT run_id, attempt,
         min(concurrency_min) AS lowest, max(concurrency_max) AS highest,
         arg_max(concurrency_final, saved_at) AS final, max(saved_at) AS saved_at,
         max(overload_answers) AS overloads
       FROM (
         SELECT * FROM ${inSide(side, RUN_PACE_TABLE)}
         WHERE $run::BIGINT IS NULL OR run_id = $run::BIGINT
         UNION ALL
         SELECT $run::BIGINT, $attempt, 'infinity'::TIMESTAMP, $min::INTEGER, $max::INTEGER,
           $final::INTEGER, $overloads::BIGINT
         WHERE $attempt::VARCHAR IS NOT NULL
       )
       GROUP BY run_id, attempt
     )
     GROUP BY run_id`;
}

/**
 * Writes into `_runs` the pace of the runs the side file (named `side`) holds saves of: of
 * `runId` with `current`'s figures (the attempt ending it), or of every run not succeeded when
 * both are omitted (the leftovers of a run a new one discards). An attempt's end is recorded in
 * `_runs` and saved in the side file, but the save can fail or the process die in between, so
 * what `_runs` holds already is kept where it is wider or more; recording a run twice changes
 * nothing.
 */
export async function recordRunPace(
  connection: DuckDBConnection,
  side: string,
  runId?: number,
  current?: AttemptFigures,
): Promise<void> {
  const pace = current?.pace;
  await connection.run(
    `UPDATE _runs SET
       concurrency_min = least(coalesce(concurrency_min, f.lowest), f.lowest),
       concurrency_max = greatest(coalesce(concurrency_max, f.highest), f.highest),
       concurrency_final = f.final,
       overload_answers = greatest(coalesce(overload_answers, 0), f.overloads)
     FROM (${foldedPaceSql(side)}) f
     WHERE _runs.run_id = f.run_id AND (f.run_id = $run::BIGINT OR _runs.status <> 'succeeded')`,
    {
      run: runId ?? null,
      attempt: current?.attempt ?? null,
      min: pace?.min ?? null,
      max: pace?.max ?? null,
      final: pace?.final ?? null,
      overloads: pace?.overloads ?? null,
    },
  );
}

/**
 * The pace `_runs` holds for `runId`, undefined while any of it is null (a run recorded before
 * the columns existed, or not ended yet). What a run prints of its pace is read here, so that it
 * is the row's whole-run figures rather than those of the attempt that printed them.
 */
export async function recordedRunPace(
  connection: DuckDBConnection,
  runId: number,
): Promise<RunPace | undefined> {
  const reader = await connection.runAndReadAll(
    `SELECT concurrency_min, concurrency_max, concurrency_final, overload_answers
     FROM _runs WHERE run_id = $run::BIGINT`,
    { run: runId },
  );
  const row = reader.getRows()[0];
  if (row === undefined || row.some((value) => value === null)) return undefined;
  const [min, max, final, overloads] = row.map(Number);
  return { min: min ?? 0, max: max ?? 0, final: final ?? 0, overloads: overloads ?? 0 };
}
