import type { Argv } from "yargs";
import { CliError } from "../../cli-error.js";
import type { CliContext } from "../context.js";

export function registerExtract(root: Argv, _ctx: CliContext): Argv {
  return root.command(
    "extract",
    "(not built yet)",
    (y) => y,
    async () => {
      throw new CliError("extract is not built yet");
    },
  );
}
