/**
 * Paths given empty: `--lake "$LAKE"` with the variable unset passes "", which the file system
 * takes as the working directory, so a publish would spread its folders over it and a roster
 * import would read the folder. Every option and argument that names a file or folder refuses an
 * empty (or blank) value by its name before the command starts.
 */
import { pathWord } from "../text/shell-word.js";
import { commandOf, withHelp } from "./usage-message.js";

/** The options that take a path, as parsed (kebab-case), and what each needs. */
const PATH_OPTIONS: Readonly<Record<string, string>> = {
  lake: "a folder",
  out: "a folder",
  catalog: "a folder",
  // Empty, it would open the working directory (with whatever it holds) to SQL.
  "allow-file-access": "a folder",
  db: "a DuckDB file",
  config: "a config file",
  "api-key-file": "a file holding the API key",
  "smtp-password-file": "a file holding the SMTP password",
};

/** The path options whose file holds a secret: a value given them is never shown. */
const SECRET_FILE_OPTIONS: ReadonlySet<string> = new Set(["api-key-file", "smtp-password-file"]);

/** The commands whose `file` argument is a path, and what they need it to name. */
const FILE_ARGUMENTS: Readonly<Record<string, string>> = {
  "roster import": "the roster file",
  apply: "the file of changes",
};

/** A value given empty or as spaces; for a repeatable option (--catalog), any of its values. */
const isBlank = (value: unknown): boolean =>
  Array.isArray(value) ? value.some(isBlank) : typeof value === "string" && value.trim() === "";

/** The value to show: the blank one of a repeatable option. */
const shown = (value: unknown): string =>
  JSON.stringify(Array.isArray(value) ? value.find(isBlank) : value);

/**
 * A path option followed by a word that starts with `-` (`--out -o`): the parser takes that word
 * for a flag and leaves the option empty, or takes the next word for it (`sql --db -x.duckdb
 * "SELECT 1"` loses its statement), so the message would be about an empty value or a missing
 * argument. A negative number is a value to it, and is left alone.
 */
function dashValue(argv: readonly string[]): string | undefined {
  for (const [i, arg] of argv.entries()) {
    if (arg === "--") return undefined;
    const option = arg.startsWith("--") ? arg.slice(2) : undefined;
    const next = argv[i + 1];
    if (option === undefined || PATH_OPTIONS[option] === undefined || next === undefined) continue;
    if (!next.startsWith("-") || next.startsWith("--") || !Number.isNaN(Number(next))) continue;
    const needs = `--${option} needs ${PATH_OPTIONS[option]}`;
    // A secret pasted where its file's name belongs is not repeated on stderr (nor in a log).
    if (SECRET_FILE_OPTIONS.has(option)) {
      return `${needs}, and the word after it starts with "-" (not shown: it may be the secret itself): if it names a file, write --${option}=./NAME`;
    }
    const word = pathWord(next);
    return `${needs}, and ${next} after it looks like a flag: if that is its name, write --${option}=${word} (or --${option} ${word})`;
  }
  return undefined;
}

/**
 * Contract: the one-line usage error for a path option whose value starts with `-` (see
 * dashValue), ending like usageLine; undefined when there is none.
 */
export function dashValueLine(
  argv: readonly string[],
  commands: readonly string[],
): string | undefined {
  const problem = dashValue(argv);
  return problem === undefined ? undefined : withHelp(problem, commandOf(argv, commands));
}

/**
 * Contract: the one-line usage error for the first path option (or file argument) in `parsed`
 * that is empty or only spaces, naming it; undefined when there is none.
 */
export function emptyPathLine(
  parsed: Readonly<Record<string, unknown>>,
  argv: readonly string[],
  commands: readonly string[],
): string | undefined {
  const command = commandOf(argv, commands);
  const option = Object.keys(PATH_OPTIONS).find((name) => isBlank(parsed[name]));
  if (option !== undefined) {
    const dashed = dashValueLine(argv, commands);
    if (dashed !== undefined) return dashed;
    const problem = `--${option} needs ${PATH_OPTIONS[option]}, got ${shown(parsed[option])} (is the variable that should name it set?)`;
    return withHelp(problem, command);
  }
  const file = command === undefined ? undefined : FILE_ARGUMENTS[command];
  if (file !== undefined && isBlank(parsed.file)) {
    // The parser gives a lone "-", standard input to many tools, as an empty name: the message
    // would say nothing was given when something was, just not a file.
    const got = argv.includes("-")
      ? `got "-", but it reads no standard input: save the data to a file and give its path`
      : "got an empty name";
    return withHelp(`${command} needs ${file}, ${got}`, command);
  }
  return undefined;
}
