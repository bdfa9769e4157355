/**
 * `completion --help`. yargs' built-in completion command prints its script whatever follows it,
 * --help included (it is looked for before help is), so `lms-export completion --help` would
 * print a script where help was asked for. This answers the help instead, written by yargs for a
 * plain command of the same name and description, so that it reads like every other command's.
 */
import yargs from "yargs";

export const COMPLETION_DESCRIPTION =
  "Print a bash/zsh completion script: lms-export completion bash >> ~/.bashrc";

/** Whether `argv` asks for the completion command's help (`completion --help`, `-h`). */
export function asksCompletionHelp(argv: readonly string[]): boolean {
  const options = argv.slice(0, argv.includes("--") ? argv.indexOf("--") : argv.length);
  const words = options.filter((arg) => !arg.startsWith("-"));
  return words[0] === "completion" && options.some((arg) => arg === "--help" || arg === "-h");
}

/** The completion command's help text, as yargs writes a command's help. */
export async function completionHelp(width: number): Promise<string> {
  let shown = "";
  await yargs(["completion", "--help"])
    .scriptName("lms-export")
    .command("completion [shell]", COMPLETION_DESCRIPTION, (command) =>
      command.positional("shell", {
        choices: ["bash", "zsh"],
        description: "The shell to write it for (alone: the shell it runs in, from $SHELL)",
      }),
    )
    .help()
    .alias("h", "help")
    .version()
    .exitProcess(false)
    .wrap(width)
    .parseAsync(["completion", "--help"], {}, (_error, _args, output) => {
      shown = output;
    });
  return shown;
}
