/**
 * The rows of a table with the problems every reader of a whole file checks: a row longer than
 * the header, and text the format cannot parse (which ends the reading), both listed with the
 * problems the caller finds.
 */
import type { ProblemList } from "./problem-list.js";
import { TabularError, type TabularRow, type TabularSource } from "./types.js";

/** Calls `use` for each row that fits the header, with its place ("line 12"). */
export function forEachRow(
  source: TabularSource,
  problems: ProblemList,
  use: (row: TabularRow, where: string) => void,
): void {
  const width = source.columns.length;
  try {
    for (const row of source.rows()) {
      const where = `${source.unit} ${row.line}`;
      if (row.values.length > width) {
        problems.add(where, `${row.values.length} fields but the header has ${width}`);
        continue;
      }
      use(row, where);
    }
  } catch (error) {
    if (!(error instanceof TabularError) || error.line === undefined) throw error;
    problems.add(`${source.unit} ${error.line}`, error.message);
  }
}
