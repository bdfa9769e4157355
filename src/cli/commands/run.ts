import type { Argv } from "yargs";
import { CliError } from "../../cli-error.js";
import type { CliContext } from "../context.js";

export function registerRun(root: Argv, _ctx: CliContext): Argv {
  return root.command(
    "run",
    "(not built yet)",
    (y) => y,
    async () => {
      throw new CliError("run is not built yet");
    },
  );
}
