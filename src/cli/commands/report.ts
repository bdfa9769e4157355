import type { Argv } from "yargs";
import { CliError } from "../../cli-error.js";
import type { CliContext } from "../context.js";

export function registerReport(root: Argv, _ctx: CliContext): Argv {
  return root.command(
    "report",
    "(not built yet)",
    (y) => y,
    async () => {
      throw new CliError("report is not built yet");
    },
  );
}
