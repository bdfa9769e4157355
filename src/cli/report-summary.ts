/** The lines `run` and `demo` print about the report files they wrote. */
import { shownPath } from "../files/shown-path.js";
import type { ReportRunResult } from "../report/run-report.js";

export function reportSummary(results: readonly ReportRunResult[], cwd = process.cwd()): string {
  const lines: string[] = [];
  for (const result of results) {
    const counts = Object.entries(result.rows);
    const rows = counts.map(([query, count]) => `${query} ${count}`).join(", ");
    const one = counts.length === 1 && counts[0]?.[1] === 1;
    lines.push(`report ${result.report}: ${rows} ${one ? "row" : "rows"}`);
    for (const file of result.files) lines.push(`  ${shownPath(cwd, file)}`);
  }
  return `${lines.join("\n")}\n`;
}
