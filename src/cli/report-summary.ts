/** The lines `run` and `demo` print about the report files they wrote. */
import { relative } from "node:path";
import type { ReportRunResult } from "../report/run-report.js";

export function reportSummary(results: readonly ReportRunResult[], cwd = process.cwd()): string {
  const lines: string[] = [];
  for (const result of results) {
    const rows = Object.entries(result.rows)
      .map(([query, count]) => `${query} ${count}`)
      .join(", ");
    lines.push(`report ${result.report}: ${rows} rows`);
    for (const file of result.files) lines.push(`  ${relative(cwd, file) || file}`);
  }
  return `${lines.join("\n")}\n`;
}
