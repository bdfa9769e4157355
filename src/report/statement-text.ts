/**
 * Blanks a final `;` (also when a `--` comment follows it on its line) so the text can be wrapped
 * in `COPY (...)` or a sub-query; line numbers stay the file's. Trailing comment lines are kept:
 * the wrappers close on a new line.
 */
export function statementText(sql: string): string {
  const lines = sql.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] ?? "";
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("--")) continue;
    const match = /;(\s*(?:--.*)?)$/.exec(line);
    if (match) lines[i] = `${line.slice(0, match.index)} ${match[1] ?? ""}`;
    break;
  }
  return lines.join("\n");
}
