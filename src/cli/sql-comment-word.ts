/**
 * A statement to `sql` may open with a `--` comment (`sql "-- weekly check⏎SELECT …"`, as a
 * statement pasted from a .sql file does). yargs reads every word starting with "-" as a flag, so
 * it took the statement for an unknown flag and asked for one. No flag name holds a space or a
 * line break, so a word starting with "-" whose name (the part before any "=") holds one is the
 * statement, and is given to yargs after a space, which SQL ignores.
 */
export function sqlCommentWords(argv: readonly string[]): readonly string[] {
  const first = argv.findIndex((word) => !word.startsWith("-"));
  if (first === -1 || argv[first] !== "sql") return argv;
  return argv.map((word, i) =>
    i > first && word.startsWith("-") && /\s/.test(word.split("=", 1)[0] ?? "") ? ` ${word}` : word,
  );
}
