/**
 * Words after a lone `--` are the command's own arguments, as most tools take them: `apply --
 * -changes.csv` for a file whose name starts with "-", which otherwise reads as flags. yargs fills
 * no positional from words after `--` and counted the command's file as missing ("apply needs
 * the file of changes"). So the `--` is taken out here, before yargs reads the line, and a word
 * after it that starts with "-" is written so that no flag reads like it: a file as the same file
 * under ./, a statement to `sql` after a space, which SQL ignores. (`schedule` takes `--` for the
 * command it runs, which parses it itself.)
 */
import { commandAt } from "./command-position.js";
import { COMPLETION_KEY } from "./completion-words.js";

/** How each command whose words may start with "-" writes such a word so it is not a flag. */
const ESCAPES: ReadonlyArray<readonly [readonly string[], (word: string) => string]> = [
  [["apply"], (file) => `./${file}`],
  [["roster", "import"], (file) => `./${file}`],
  [["report"], (file) => `./${file}`],
  [["run"], (file) => `./${file}`],
  [["sql"], (statement) => ` ${statement}`],
];

/** Contract: the escape of the command `words` name (command-position.ts), if it is one above. */
function escapeFor(words: readonly string[]): ((word: string) => string) | undefined {
  return ESCAPES.find(([command]) => commandAt(words, command) !== -1)?.[1];
}

/**
 * Whether the `--` at `at` is the word Tab completes: a flag begun (`sql --<Tab>`), for which the
 * flags are offered, not the end of the flags, which left nothing to offer.
 */
function typedDashes(argv: readonly string[], at: number): boolean {
  return at === argv.length - 1 && argv.includes(`--${COMPLETION_KEY}`);
}

/**
 * Contract: `argv` as the command line yargs should read: for a command above with a lone `--`,
 * without it and with each word after it that starts with "-" escaped as above; otherwise
 * `argv` itself.
 */
export function wordsAfterDashDash(argv: readonly string[]): readonly string[] {
  const at = argv.indexOf("--");
  if (at === -1 || typedDashes(argv, at)) return argv;
  const written = escapeFor(argv.slice(0, at));
  if (!written) return argv;
  const after = argv.slice(at + 1).map((word) => (word.startsWith("-") ? written(word) : word));
  return [...argv.slice(0, at), ...after];
}
