import type { Argv } from "yargs";
import { CliError } from "../../cli-error.js";
import type { CliContext } from "../context.js";

export function registerSql(root: Argv, _ctx: CliContext): Argv {
  return root.command(
    "sql",
    "(not built yet)",
    (y) => y,
    async () => {
      throw new CliError("sql is not built yet");
    },
  );
}
