/**
 * Tab after `schedule --cron "…" -- `: the words after the `--` are the command the schedule
 * runs, so Tab completes them as that command's own line. Read as the schedule's words, Tab
 * offered `schedule`'s flags where `run`'s or `extract`'s were wanted.
 */
import { commandAt } from "./command-position.js";
import { COMPLETION_KEY } from "./completion-words.js";

/**
 * Contract: for a completion request (`--get-yargs-completions PROGRAM WORDS…`) whose words are
 * `schedule`'s with a lone `--` before the word being typed, the same request for the words
 * after the `--`; otherwise `argv` itself.
 */
export function scheduledCommandForTab(argv: readonly string[]): readonly string[] {
  const at = argv.indexOf(`--${COMPLETION_KEY}`);
  if (at === -1) return argv;
  // The program's name first, the word being typed last.
  const [program, ...words] = argv.slice(at + 1);
  const dashes = words.indexOf("--");
  if (program === undefined || dashes === -1 || dashes === words.length - 1) return argv;
  if (commandAt(words.slice(0, dashes), ["schedule"]) === -1) return argv;
  return [...argv.slice(0, at + 1), program, ...words.slice(dashes + 1)];
}
