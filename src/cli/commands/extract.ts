import type { Argv } from "yargs";
import type { CliContext } from "../context.js";
import { extractCommand } from "../extract-command.js";
import { withExtractOptions } from "../extract-options.js";
import { withConnectionOptions, withDbOption, withLogOptions } from "../options.js";

export function registerExtract(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "extract",
    "Copy everything the portal exposes into the DuckDB file",
    (y) =>
      withExtractOptions(withLogOptions(withDbOption(withConnectionOptions(y))))
        .example(
          "LMS_API_KEY_FILE=~/.lms-key $0 extract --base-url https://lms.example.com/api-v2",
          "full copy into ./lms.duckdb",
        )
        .example(
          "$0 extract --incremental --db weekly.duckdb",
          "only what changed since the last run",
        )
        .example("$0 extract --resume", "continue a run that was interrupted")
        .example("$0 extract --only grp,user_grp", "refresh two tables"),
    (args) => extractCommand(args, ctx),
  );
}
