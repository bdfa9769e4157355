/**
 * A statement to `sql` may open with a `--` comment (`sql "-- weekly check⏎SELECT …"`, as a
 * statement pasted from a .sql file does). yargs reads every word starting with "-" as a flag, so
 * it took the statement for an unknown flag and asked for one. A word that starts with "--" and
 * holds a line break is such a statement (a comment alone is one line, and no flag or path holds
 * a line break; a path like "-x y.duckdb" stays a word that looks like a flag, and is said to be
 * one), and is given to yargs after a space, which SQL ignores.
 */
import { commandAt } from "./command-position.js";

export function sqlCommentWords(argv: readonly string[]): readonly string[] {
  const first = commandAt(argv, ["sql"]);
  if (first === -1) return argv;
  return argv.map((word, i) =>
    i > first && word.startsWith("--") && /[\r\n]/.test(word) ? ` ${word}` : word,
  );
}
