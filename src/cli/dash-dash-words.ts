/**
 * Words after a lone `--` are the command's own arguments, as most tools take them: `apply --
 * -changes.csv` for a file whose name starts with "-", which otherwise reads as flags. yargs fills
 * no positional from words after `--` and counted the command's file as missing ("apply needs
 * the file of changes"). So the `--` is taken out here, before yargs reads the line, and a file
 * word after it that starts with "-" is written as the same file under ./, which no flag is.
 * (`schedule` takes `--` for the command it runs, which parses it itself.)
 */

/** The commands whose words are files (report and run: names, or paths to .sql files). */
const FILE_COMMANDS: ReadonlyArray<readonly string[]> = [
  ["apply"],
  ["roster", "import"],
  ["report"],
  ["run"],
];

/**
 * Contract: `argv` as the command line yargs should read: for a command above with a lone `--`,
 * without it and with each word after it that starts with "-" prefixed with "./"; otherwise
 * `argv` itself.
 */
export function wordsAfterDashDash(argv: readonly string[]): readonly string[] {
  const at = argv.indexOf("--");
  if (at === -1) return argv;
  const words = argv.slice(0, at).filter((word) => !word.startsWith("-"));
  const files = FILE_COMMANDS.some((command) => command.every((word, i) => words[i] === word));
  if (!files) return argv;
  const after = argv.slice(at + 1).map((word) => (word.startsWith("-") ? `./${word}` : word));
  return [...argv.slice(0, at), ...after];
}
