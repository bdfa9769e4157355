import type { Argv } from "yargs";
import { CliError } from "../../cli-error.js";
import type { CliContext } from "../context.js";

export function registerSimulate(root: Argv, _ctx: CliContext): Argv {
  return root.command(
    "simulate",
    "(not built yet)",
    (y) => y,
    async () => {
      throw new CliError("simulate is not built yet");
    },
  );
}
