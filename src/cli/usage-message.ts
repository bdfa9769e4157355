/**
 * yargs' own usage messages, rewritten as the one line every lms-export error is: what was wrong,
 * what is accepted, and which help to read. yargs words them for its own report ("Invalid
 * values:" and the details on further lines, "Unknown argument: bogus" without the dashes), and a
 * scheduler's log or a cron mail keeps only the first line.
 */

import { listed } from "../text/listed-words.js";
import { quotedUnlessSecret, shownUnlessSecret } from "../text/secret-like.js";
import { scheduleCommandHint } from "./schedule-usage-hint.js";
import { typedTexts } from "./typed-flag-text.js";

/** What each command's positional arguments are, for "Not enough non-option arguments". */
const MISSING_POSITIONALS: Readonly<Record<string, string>> = {
  report: "the names of the reports or queries to write (`lms-export list` shows them)",
  run: "the names of the reports to write after the extract (`lms-export list` shows them)",
  sql: 'the statement to run, in double quotes, e.g. lms-export sql "SELECT count(*) FROM take"',
  apply: "the file of changes",
  "roster import": "the roster file",
};

/**
 * The command `argv` names (`roster import` for the subcommand), if any: the first argument that
 * is one of `commands`. An option's value could only be mistaken for it if it came first.
 */
export function commandOf(
  argv: readonly string[],
  commands: readonly string[],
): string | undefined {
  const words = argv.filter((arg) => !arg.startsWith("-"));
  const at = words.findIndex((word) => commands.includes(word));
  if (at === -1) return undefined;
  const command = words[at] as string;
  return command === "roster" && words[at + 1] === "import" ? "roster import" : command;
}

/**
 * The hint for `--wait NAME`: --wait takes an optional number, so the word after it (the report or
 * file meant) was read as its seconds, and the command seems to lack what was typed.
 */
function waitTookWord(argv: readonly string[]): string {
  const at = argv.indexOf("--wait");
  const word = at === -1 ? undefined : argv[at + 1];
  if (word === undefined || word.startsWith("-") || Number.isFinite(Number(word))) return "";
  return ` (--wait read ${JSON.stringify(word)} as its seconds: write --wait after it, or give it a number, --wait 600)`;
}

/** `--name` as the user typed it (`-x` for a one-letter flag), or the word in quotes. */
function asTyped(name: string, argv: readonly string[]): string {
  const dashes = name.length === 1 ? "-" : "--";
  const flag = `${dashes}${name}`;
  const typed = argv.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
  return typed ? flag : JSON.stringify(name);
}

/** Names yargs lists twice (`log-format, logFormat`): only the kebab-case one is kept. */
function distinctNames(list: string): string[] {
  const names = list.split(/,\s*/).filter((name) => name !== "");
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return names.filter((name) => kebab(name) === name || !names.includes(kebab(name)));
}

/** "Argument: format, Given: "xml", Choices: "table", "csv"" as `--format "xml" is not ...`. */
function invalidValues(message: string): string {
  const lines = message.split("\n").slice(1);
  const parts = lines.flatMap((line) => {
    const match = /Argument: (\S+), Given: (.*), Choices: (.*)$/.exec(line.trim());
    if (!match) return [];
    const choices = (match[3] ?? "").split(/,\s*/).map((c) => c.replace(/^"|"$/g, ""));
    const given = shownUnlessSecret(match[2] ?? "");
    return [`--${match[1]} ${given} is not accepted: use ${listed(choices, "or")}`];
  });
  return parts.length > 0 ? parts.join("; ") : oneLine(message);
}

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ": ").trim();
}

/** What yargs-parser reads as a negative number rather than flags (its own `negative`). */
const YARGS_NEGATIVE = /^-([0-9]+(\.[0-9]+)?|\.[0-9]+)$/;

/**
 * The words of `argv` yargs splits into one-letter flags: `-` and more than one character. A
 * number is one too unless yargs reads it as a negative number (`-1`, `-.5`): `--rate -1e3` was
 * "unexpected arguments "1" and "e"".
 */
function dashClusters(argv: readonly string[]): string[] {
  const end = argv.indexOf("--");
  const words = end === -1 ? argv : argv.slice(0, end);
  return words.filter(
    (word) => /^-[^-]/.test(word) && word.length > 2 && !YARGS_NEGATIVE.test(word),
  );
}

/** The problem itself, without the pointer to the help. */
function problemOf(message: string, argv: readonly string[], command: string | undefined): string {
  if (message.startsWith("Invalid values:")) return invalidValues(message);
  const unknown = /^Unknown arguments?: (.+)$/.exec(message);
  if (unknown) {
    const clusters = dashClusters(argv);
    const all = distinctNames(unknown[1] ?? "");
    // yargs reads `-Xq7` as the short flags X, q and 7, and names each: the letters of what may
    // be a key or password typed after a flag (`--api-key -Xq7…`) are not spelled out.
    const shown = all.filter(
      (name) => !(name.length === 1 && clusters.some((c) => c.includes(name))),
    );
    const names = shown.map((name) => asTyped(name, argv));
    const options = names.filter((name) => name.startsWith("-"));
    const words = names.filter((name) => !name.startsWith("-"));
    const parts = [
      ...(options.length > 0
        ? [`unknown option${options.length > 1 ? "s" : ""} ${listed(options)}`]
        : []),
      ...(words.length > 0
        ? [`unexpected argument${words.length > 1 ? "s" : ""} ${listed(words)}`]
        : []),
      ...(names.length < all.length
        ? [
            'a word starting with "-" that is no option (not shown: it may be a secret; a value that starts with "-" is written --flag=VALUE)',
          ]
        : []),
    ];
    return `${parts.join("; ")}${scheduleCommandHint(command, argv)}`;
  }
  const suggestion = /^Did you mean (.+)\?$/.exec(message);
  if (suggestion) {
    const typed = argv.find((arg) => !arg.startsWith("-"));
    return `unknown command ${JSON.stringify(typed ?? "")} (did you mean ${suggestion[1]}?)`;
  }
  if (message.startsWith("Not enough non-option arguments")) {
    const what = command === undefined ? undefined : MISSING_POSITIONALS[command];
    // `roster import -f.csv`: the file's name was read as one-letter flags.
    const dashed =
      dashClusters(argv).length > 0
        ? ' (a word starting with "-" is read as flags: write a file whose name starts with "-" as ./NAME, or after --)'
        : "";
    return what === undefined
      ? "an argument is missing"
      : `${command} needs ${what}${dashed}${waitTookWord(argv)}`;
  }
  const missing = /^Missing required arguments?: (.+)$/.exec(message);
  if (missing) {
    const names = distinctNames(missing[1] ?? "").map((name) => `--${name}`);
    return `${listed(names)} ${names.length > 1 ? "are" : "is"} required`;
  }
  const exclusive = /^Arguments (\S+) and (\S+) are mutually exclusive$/.exec(message);
  if (exclusive) return `--${exclusive[1]} and --${exclusive[2]} cannot be used together`;
  const implied = /^Implications failed:\s+(\S+) -> (\S+)/.exec(message);
  if (implied)
    return `--${implied[1]} is for --${implied[2]}: add it, or leave out --${implied[1]}`;
  const following = /^Not enough arguments following: (\S+)$/.exec(message);
  if (following) return `--${following[1]} needs a value`;
  return oneLine(message);
}

/**
 * Contract: one line naming the bad flag, value or argument and what is accepted, ending with
 * "see lms-export <command> --help" (the root help when no command is named), unless the message
 * already points to a help.
 */
export function usageLine(
  message: string,
  argv: readonly string[],
  commands: readonly string[],
): string {
  const command = commandOf(argv, commands);
  return withHelp(problemOf(message, argv, command), command);
}

export function withHelp(problem: string, command: string | undefined): string {
  if (problem.includes("--help")) return problem;
  return `${problem}; see lms-export ${command === undefined ? "" : `${command} `}--help`;
}

const isNaNValue = (value: unknown): boolean =>
  Number.isNaN(value) || (Array.isArray(value) && value.some((v) => Number.isNaN(v)));

/** The first text typed for `--name` that is not a number, if any. */
function typedValue(name: string, argv: readonly string[]): string | undefined {
  return typedTexts(name, argv).find(
    (text) => !text.startsWith("--") && Number.isNaN(Number(text)),
  );
}

/**
 * yargs turns the text of a number flag that is no number into NaN, which a range check can only
 * print as "got NaN". Contract: for parsed options holding NaN, one line naming the first such
 * flag and the text typed, ending like {@link usageLine}; undefined when every number is one.
 */
export function notANumberLine(
  parsed: Readonly<Record<string, unknown>>,
  argv: readonly string[],
  commands: readonly string[],
): string | undefined {
  // yargs keeps each option under its kebab-case and camelCase names: the kebab one is typed.
  const name = Object.keys(parsed).find((key) => !/[A-Z]/.test(key) && isNaNValue(parsed[key]));
  if (name === undefined) return undefined;
  const typed = typedValue(name, argv);
  const problem =
    typed === undefined
      ? `--${name} needs a number`
      : `--${name} must be a number, got ${quotedUnlessSecret(typed)}`;
  return withHelp(problem, commandOf(argv, commands));
}
