/**
 * The pace of a run in `_runs` (columns RUN_PACE_COLUMNS of meta-ddl.ts): the range and the last
 * value of the limit on requests in flight, and the portal's "too busy" answers.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

export interface RunPace {
  readonly min: number;
  readonly max: number;
  readonly final: number;
  readonly overloads: number;
}

/**
 * Records the pace of one attempt at a run. A resumed run keeps the widest range and the sum of
 * overload answers over its attempts, and the last attempt's final value.
 */
export async function recordRunPace(
  connection: DuckDBConnection,
  runId: number,
  pace: RunPace,
): Promise<void> {
  await connection.run(
    `UPDATE _runs SET
       concurrency_min = least(coalesce(concurrency_min, $min::INTEGER), $min::INTEGER),
       concurrency_max = greatest(coalesce(concurrency_max, $max::INTEGER), $max::INTEGER),
       concurrency_final = $final::INTEGER,
       overload_answers = coalesce(overload_answers, 0) + $overloads::BIGINT
     WHERE run_id = $run::BIGINT`,
    { min: pace.min, max: pace.max, final: pace.final, overloads: pace.overloads, run: runId },
  );
}
