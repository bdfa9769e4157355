import type { Argv } from "yargs";
import { CliError } from "../../cli-error.js";
import type { CliContext } from "../context.js";

export function registerSchedule(root: Argv, _ctx: CliContext): Argv {
  return root.command(
    "schedule",
    "(not built yet)",
    (y) => y,
    async () => {
      throw new CliError("schedule is not built yet");
    },
  );
}
