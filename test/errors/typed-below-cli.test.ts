/**
 * Stages below the command line throw LmsExportError with a code; only src/cli decides exit
 * codes. The command line's old error classes, which carried exit codes, must not come back in
 * a stage.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "../helpers/spawn-cli.js";

const SRC = join(PROJECT_ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** `file:line: text` for each line outside src/cli that names `pattern`. */
function mentionsOutsideCli(pattern: RegExp): string[] {
  return sourceFiles(SRC)
    .filter((file) => !relative(SRC, file).startsWith("cli/"))
    .flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) =>
          pattern.test(line)
            ? [`${relative(PROJECT_ROOT, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
}

describe("errors below the command line", () => {
  it("never use CliError or UsageError (throw LmsExportError with a code)", () => {
    expect(mentionsOutsideCli(/\b(CliError|UsageError)\b/)).toEqual([]);
  });

  it("never choose an exit code (src/cli/exit-codes.ts maps codes to them)", () => {
    expect(mentionsOutsideCli(/\bEXIT_(OK|FAILED|USAGE|SIGINT|SIGTERM)\b|exit-codes\.js/)).toEqual(
      [],
    );
  });

  it("the scan sees the stages", () => {
    const files = sourceFiles(SRC).map((file) => relative(SRC, file));
    for (const stage of ["config/", "load/", "extract/", "report/", "security/"]) {
      expect(
        files.some((file) => file.startsWith(stage)),
        stage,
      ).toBe(true);
    }
  });
});
