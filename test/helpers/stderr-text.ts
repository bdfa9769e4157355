/**
 * A child's stderr with the CLI's own lines as text: in a log whose JSON was asked for, the final
 * error is an error record (`{"level":"error",…,"msg":…}`, src/cli/stderr-line.ts), given back
 * here as the `lms-export: …` line a text log has. Other lines are kept as they are.
 */
export function stderrText(stderr: string): string {
  return stderr
    .split("\n")
    .map((line) => {
      if (!line.startsWith("{")) return line;
      const record = JSON.parse(line) as { level?: unknown; msg?: unknown };
      return record.level === "error" && typeof record.msg === "string"
        ? `lms-export: ${record.msg}`
        : line;
    })
    .join("\n");
}
