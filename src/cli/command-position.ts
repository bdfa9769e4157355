/**
 * Where a command's words stand on a command line. Flags may come before the command, and a
 * flag's value after its flag (`--db acme.duckdb report`), so the command is not simply the first
 * word without a dash: read so, `acme.duckdb` was the command, and `--db acme.duckdb report --
 * -mine.sql` read the file as flags, and Tab after it offered no report names. The word after a
 * flag is taken as its value; after a flag that takes none (`--json report`) the command is still
 * found, as the first run of its words with nothing but flags and values before it.
 */

/**
 * Contract: the index in `argv` where the words of `command` (`["roster", "import"]`) start, with
 * only flags and the words after flags before them; -1 when there is no such place.
 */
export function commandAt(argv: readonly string[], command: readonly string[]): number {
  const flagOrValue = (word: string, i: number) =>
    word.startsWith("-") || argv[i - 1]?.startsWith("-") === true;
  return argv.findIndex(
    (_word, at) =>
      command.every((word, k) => argv[at + k] === word) && argv.slice(0, at).every(flagOrValue),
  );
}
