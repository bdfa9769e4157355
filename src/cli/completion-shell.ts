/**
 * `completion bash` and `completion zsh`. yargs' completion command picks its script from the
 * shell it runs in ($SHELL, $ZSH_NAME) and takes no word after it, so `lms-export completion >>
 * ~/.zshrc` typed at a bash prompt wrote bash's script into zsh's file, and `completion zsh` was
 * an unknown command. A shell named after the command picks the script instead. yargs also has a
 * fish script, chosen when $SHELL is fish; the answers to Tab here are made and tested for bash
 * and zsh, so fish is refused whether it is named or found in $SHELL.
 */
import yargs from "yargs";
import { writeLogLine } from "../log/log-line-output.js";
import { COMPLETION_DESCRIPTION } from "./completion-help.js";
import type { CliContext } from "./context.js";
import { EXIT_OK, EXIT_USAGE, type ExitCode } from "./exit-codes.js";

/** What yargs looks for in $SHELL to choose each script. */
const SHELL_PATHS = { bash: "/bin/bash", zsh: "/bin/zsh" } as const;
type Shell = keyof typeof SHELL_PATHS;
/** The shells `completion` has a script for, as Tab offers them. */
export const SHELLS = Object.keys(SHELL_PATHS) as readonly Shell[];

const isShell = (word: string): word is Shell => Object.hasOwn(SHELL_PATHS, word);

/**
 * The shell yargs writes the script for when `completion` names none, as yargs chooses it from
 * the environment it reads (the process's own): zsh, fish, or else bash.
 */
function shellOfEnvironment(env: NodeJS.ProcessEnv): string {
  if (env.SHELL?.includes("zsh") || env.ZSH_NAME?.includes("zsh")) return "zsh";
  return env.SHELL?.includes("fish") ? "fish" : "bash";
}

/**
 * Contract: for `completion SHELL` in `argv`, writes that shell's script and answers EXIT_OK, or
 * for a shell it has no script for a one-line error and EXIT_USAGE; for `completion` alone in
 * such a shell ($SHELL fish, for which yargs has a script Tab does not answer) the same error.
 * Answers undefined, having written nothing, when yargs is to write the script, or argv is not
 * the completion command.
 */
export async function answerNamedShell(
  argv: readonly string[],
  ctx: Pick<CliContext, "stdout" | "stderr">,
): Promise<ExitCode | undefined> {
  const words = argv.filter((arg) => !arg.startsWith("-"));
  if (words[0] !== "completion") return undefined;
  const named = words.length < 2 ? [shellOfEnvironment(process.env)] : words.slice(1);
  const [shell] = named;
  if (named.length === 1 && shell !== undefined && isShell(shell)) {
    // yargs writes the script of the shell it runs in, and answers Tab from it.
    if (words.length < 2) return undefined;
    ctx.stdout.write(await completionScript(shell));
    return EXIT_OK;
  }
  const problem = `completion takes bash or zsh, got ${JSON.stringify(named.join(" "))}`;
  writeLogLine(ctx.stderr, `lms-export: ${problem}; see lms-export completion --help\n`);
  return EXIT_USAGE;
}

/** The completion script for `shell`, as yargs writes it when it runs in that shell. */
async function completionScript(shell: Shell): Promise<string> {
  const saved = { SHELL: process.env.SHELL, ZSH_NAME: process.env.ZSH_NAME };
  process.env.SHELL = SHELL_PATHS[shell];
  delete process.env.ZSH_NAME;
  let parser: ReturnType<typeof yargs>;
  try {
    // yargs reads the environment once, when the parser is made.
    parser = yargs(["completion"])
      .scriptName("lms-export")
      .completion("completion", COMPLETION_DESCRIPTION);
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  let shown = "";
  await parser.exitProcess(false).parseAsync(["completion"], {}, (_error, _args, output) => {
    shown = output;
  });
  return shown;
}
