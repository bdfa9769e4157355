/**
 * What Tab offers after the words typed. yargs' own completion offers every flag wherever the
 * word being typed is empty, so a flag's value (`--db <Tab>`) and a file argument (`apply <Tab>`)
 * were offered flags, and the shell, which completes file names only when the command offers
 * nothing, never did. A value of a flag with choices keeps yargs' list of them; report and run
 * offer the report and query names.
 */
import type { CompletionCallback, FallbackCompletionFunction } from "yargs";
import { loadCatalogFor } from "./catalog-option.js";
import { commandAt } from "./command-position.js";
import { SHELLS } from "./completion-shell.js";
import type { CliContext } from "./context.js";

/** The commands whose words are files: the shell's own completion names them. */
const FILE_ARGUMENTS: ReadonlyArray<readonly string[]> = [["apply"], ["roster", "import"]];
/** The commands whose words are report or query names (or .sql files). */
const NAME_ARGUMENTS = ["report", "run"];

type Done = (completions: string[]) => unknown;
type Default = (onCompleted?: CompletionCallback) => unknown;

/** Whether the word before the one being typed is a flag that takes a value (not --full). */
function valueOfFlag(previous: string | undefined, parsed: Record<string, unknown>): boolean {
  if (previous === undefined || !previous.startsWith("-") || previous === "--") return false;
  if (previous.includes("=")) return false;
  const key = previous.replace(/^-+/, "");
  return key in parsed && typeof parsed[key] !== "boolean";
}

/** The flag yargs' completion script passes to ask for the words that may come next. */
export const COMPLETION_KEY = "get-yargs-completions";

/**
 * Contract: `argv` with the "=" words bash made out of `--flag=value` taken out of a completion
 * request. bash splits the words it passes at "=" (it is in COMP_WORDBREAKS), so `report
 * --out=week<Tab>` came as `--out`, `=`, `week`, and the value read as a report name and was
 * offered one. Without the "=", the value is the flag's, and yargs offers the flag's choices. An
 * "=" being typed (the last word) stays: bash completes what follows it as a file name.
 */
export function joinedAtEquals(argv: readonly string[]): readonly string[] {
  const at = argv.indexOf(`--${COMPLETION_KEY}`);
  if (at === -1) return argv;
  return argv.filter(
    (word, i) => i <= at || i === argv.length - 1 || word !== "=" || !argv[i - 1]?.startsWith("-"),
  );
}

/** The report and query names; none when the catalog cannot be read. */
async function reportNames(parsedCatalog: readonly string[], ctx: CliContext): Promise<string[]> {
  try {
    const catalog = await loadCatalogFor(parsedCatalog.length > 0 ? parsedCatalog : undefined, ctx);
    return [...catalog.reports.keys(), ...catalog.queries.keys()].sort();
  } catch {
    // A catalog that cannot be read is the command's own error to give, not Tab's.
    return [];
  }
}

/** The --catalog folders typed on the command line. */
function typedCatalogs(words: readonly string[]): string[] {
  return words.flatMap((word, i) => {
    if (word.startsWith("--catalog=")) return [word.slice("--catalog=".length)];
    const next = words[i + 1];
    return word === "--catalog" && next !== undefined ? [next] : [];
  });
}

/**
 * yargs' completion function (its "fallback" form) when `argv` asks for completions, else
 * undefined. The report names are read here, beforehand: yargs takes the function's answer at
 * once, and one given later comes after it has refused the completion flag as unknown.
 */
export async function completionFor(
  argv: readonly string[],
  ctx: CliContext,
): Promise<FallbackCompletionFunction | undefined> {
  const at = argv.indexOf(`--${COMPLETION_KEY}`);
  if (at === -1) return undefined;
  // The program's name first, the word being typed last.
  const typed = argv.slice(at + 1);
  const before = typed.slice(1, -1);
  const is = (command: readonly string[]) => commandAt(before, command) !== -1;
  const namesWanted = NAME_ARGUMENTS.some((command) => is([command]));
  const names = namesWanted ? await reportNames(typedCatalogs(typed), ctx) : [];
  // `completion` offers its shells as its first word only.
  const completionAt = commandAt(before, ["completion"]);
  const shellWanted =
    completionAt !== -1 && before.slice(completionAt + 1).every((word) => word.startsWith("-"));
  return (current, parsed: Record<string, unknown>, byDefault: Default, done: Done) => {
    if (valueOfFlag(typed.at(-2), parsed)) {
      // Flags are no value: what is left are the flag's choices, if it has any.
      byDefault((_error, list) => done((list ?? []).filter((word) => !word.startsWith("-"))));
    } else if (current.startsWith("-")) {
      byDefault();
    } else if (FILE_ARGUMENTS.some(is)) {
      done([]);
    } else if (completionAt !== -1) {
      done(shellWanted ? SHELLS.filter((shell) => shell.startsWith(current)) : []);
    } else if (namesWanted) {
      done(names.filter((name) => name.startsWith(current)));
    } else {
      byDefault();
    }
  };
}
