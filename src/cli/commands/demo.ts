import type { Argv } from "yargs";
import { CliError } from "../../cli-error.js";
import type { CliContext } from "../context.js";

export function registerDemo(root: Argv, _ctx: CliContext): Argv {
  return root.command(
    "demo",
    "(not built yet)",
    (y) => y,
    async () => {
      throw new CliError("demo is not built yet");
    },
  );
}
