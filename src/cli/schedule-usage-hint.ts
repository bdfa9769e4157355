/**
 * `schedule --cron "0 6 * * 1" run weekly-compliance` (the `--` forgotten) is refused by the
 * parser as stray words and unknown options of `schedule` itself; the usage line then shows where
 * the command goes, with the words the user typed.
 */
import { shellWord } from "../text/shell-word.js";

/** `schedule`'s own options that take a value, and those that take none. */
const WITH_VALUE = new Set(["--cron", "--timezone", "--config", "--log-format"]);
const WITHOUT_VALUE = new Set(["--run-now", "--quiet"]);

/** The words typed after `schedule` split into its own options and the command meant to follow. */
function splitWords(argv: readonly string[]): { own: string[]; command: string[] } {
  const own: string[] = [];
  const command: string[] = [];
  const words = argv.slice(argv.indexOf("schedule") + 1);
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const name = word.split("=")[0] as string;
    if (WITH_VALUE.has(name)) {
      own.push(word);
      if (!word.includes("=") && i + 1 < words.length) own.push(words[++i] as string);
    } else if (WITHOUT_VALUE.has(name)) own.push(word);
    else command.push(word);
  }
  return { own, command };
}

/**
 * Contract: for a `schedule` command line without `--` whose words the parser refused, among
 * them a word that is no option (the command's name), a parenthetical showing the same line with
 * `--` before the command; "" otherwise.
 */
export function scheduleCommandHint(command: string | undefined, argv: readonly string[]): string {
  if (command !== "schedule" || argv.includes("--")) return "";
  const { own, command: rest } = splitWords(argv);
  // A mistyped option of schedule's own (`--run-nwo`) is no command put before its `--`.
  if (!rest.some((word) => !word.startsWith("-"))) return "";
  const line = ["lms-export schedule", ...own.map(shellWord), "--", ...rest.map(shellWord)];
  return ` (the command to run goes after a lone --: ${line.join(" ")})`;
}
