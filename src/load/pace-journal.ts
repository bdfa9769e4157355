/**
 * The pace of an attempt at a run, kept in the side file as it goes (`_run_pace`): the lowest and
 * highest limit so far and the portal's too-busy answers, saved with the staging commits. An
 * attempt killed outright (kill -9, a crash, the machine turned off) records nothing in `_runs`,
 * so without these rows the run's row, once resumed, would hold only the attempts that ended on
 * their own, and undercount the overload answers the portal gave it.
 */
import type { DuckDBConnection } from "@duckdb/node-api";

/** The pace of an attempt, or of a run, as `_runs` keeps it. */
export interface RunPace {
  readonly min: number;
  readonly max: number;
  readonly final: number;
  readonly overloads: number;
}

export const RUN_PACE_TABLE = "_run_pace";

/** One row per save: the figures of `attempt` (one extract process's part of a run) so far. */
export const RUN_PACE_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ${RUN_PACE_TABLE} (
  run_id BIGINT NOT NULL,
  attempt VARCHAR NOT NULL,
  saved_at TIMESTAMP NOT NULL,
  concurrency_min INTEGER NOT NULL,
  concurrency_max INTEGER NOT NULL,
  concurrency_final INTEGER NOT NULL,
  overload_answers BIGINT NOT NULL
)`;

/** The attempt recording its run's end, with its figures now. */
export interface AttemptFigures {
  readonly attempt: string;
  readonly pace: RunPace;
}

/** The figures of one attempt at a run, read from its client when asked. */
export class PaceJournal {
  #saved: RunPace | undefined;

  constructor(
    readonly attempt: string,
    private readonly read: () => RunPace,
  ) {}

  now(): AttemptFigures {
    return { attempt: this.attempt, pace: this.read() };
  }

  /**
   * The figures to save with the next commit, or undefined when the range and the count are as
   * last saved: the limit moves all the time, and a row per commit would only repeat itself.
   */
  due(): RunPace | undefined {
    const now = this.read();
    const last = this.#saved;
    const same =
      last !== undefined &&
      last.min === now.min &&
      last.max === now.max &&
      last.overloads === now.overloads;
    return same ? undefined : now;
  }

  /** `pace` is committed (a failed commit leaves it due again). */
  saved(pace: RunPace): void {
    this.#saved = pace;
  }
}

/** Adds a row of `pace` for the journal's attempt, on a connection to the side file. */
export async function savePace(
  connection: DuckDBConnection,
  runId: number,
  attempt: string,
  pace: RunPace,
): Promise<void> {
  await connection.run(
    `INSERT INTO ${RUN_PACE_TABLE} VALUES ($run::BIGINT, $attempt, now()::TIMESTAMP, $min::INTEGER, $max::INTEGER, $final::INTEGER, $overloads::BIGINT)`,
    {
      run: runId,
      attempt,
      min: pace.min,
      max: pace.max,
      final: pace.final,
      overloads: pace.overloads,
    },
  );
}
