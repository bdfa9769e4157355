/**
 * Paths given empty: `--lake "$LAKE"` with the variable unset passes "", which the file system
 * takes as the working directory, so a publish would spread its folders over it and a roster
 * import would read the folder. Every option and argument that names a file or folder refuses an
 * empty (or blank) value by its name before the command starts.
 */
import { commandOf, withHelp } from "./usage-message.js";

/** The options that take a path, as parsed (kebab-case), and what each needs. */
const PATH_OPTIONS: Readonly<Record<string, string>> = {
  lake: "a folder",
  out: "a folder",
  catalog: "a folder",
  db: "a DuckDB file",
  config: "a config file",
  "api-key-file": "a file holding the API key",
  "smtp-password-file": "a file holding the SMTP password",
};

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
    const problem = `--${option} needs ${PATH_OPTIONS[option]}, got ${shown(parsed[option])} (is the variable that should name it set?)`;
    return withHelp(problem, command);
  }
  const file = command === undefined ? undefined : FILE_ARGUMENTS[command];
  if (file !== undefined && isBlank(parsed.file)) {
    return withHelp(`${command} needs ${file}, got an empty name`, command);
  }
  return undefined;
}
