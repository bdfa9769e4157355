/**
 * The rows of a table with the problems every reader of a whole file checks: a row longer than
 * the header, and text the format cannot parse (which ends the reading), both listed with the
 * problems the caller finds.
 */
import type { ProblemList } from "./problem-list.js";
import { TabularError, type TabularRow, type TabularSource } from "./types.js";

type RowUse = (row: TabularRow, where: string) => void;

/** Rows between two turns of the event loop in {@link forEachRowYielding}. */
const ROWS_PER_TURN = 20_000;

/**
 * Calls `use` for each row that fits the header, with its place ("line 12"); `every`, if given,
 * for each row read, before any check (a longer row is the clue that the header is lower down).
 */
export function forEachRow(
  source: TabularSource,
  problems: ProblemList,
  use: RowUse,
  every?: (row: TabularRow) => void,
): void {
  try {
    for (const row of source.rows()) {
      every?.(row);
      useChecked(source, problems, row, use);
    }
  } catch (error) {
    unreadable(source, problems, error);
  }
}

/**
 * {@link forEachRow}, letting the event loop turn every few thousand rows: a signal (Ctrl-C) is
 * only seen between turns, and a large file read in one would be read, and acted on, to the end.
 * Throws `signal`'s reason once it is aborted.
 */
export async function forEachRowYielding(
  source: TabularSource,
  problems: ProblemList,
  use: RowUse,
  signal: AbortSignal | undefined,
): Promise<void> {
  let sinceTurn = 0;
  try {
    for (const row of source.rows()) {
      useChecked(source, problems, row, use);
      if (++sinceTurn < ROWS_PER_TURN) continue;
      sinceTurn = 0;
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
    }
  } catch (error) {
    unreadable(source, problems, error);
  }
}

function useChecked(source: TabularSource, problems: ProblemList, row: TabularRow, use: RowUse) {
  const where = `${source.unit} ${row.line}`;
  const width = source.columns.length;
  if (row.values.length > width) {
    problems.add(where, `${row.values.length} fields but the header has ${width}`);
    return;
  }
  use(row, where);
}

/** A text the format cannot parse ends the reading as a problem of its line; others propagate. */
function unreadable(source: TabularSource, problems: ProblemList, error: unknown): void {
  if (!(error instanceof TabularError) || error.line === undefined) throw error;
  problems.add(`${source.unit} ${error.line}`, error.message);
}
