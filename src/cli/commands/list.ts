import type { Argv } from "yargs";
import { CliError } from "../../cli-error.js";
import type { CliContext } from "../context.js";

export function registerList(root: Argv, _ctx: CliContext): Argv {
  return root.command(
    "list",
    "(not built yet)",
    (y) => y,
    async () => {
      throw new CliError("list is not built yet");
    },
  );
}
