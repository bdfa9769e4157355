import type { Argv } from "yargs";
import { readApiKey } from "../../config/api-key.js";
import { openDatabase } from "../../load/database.js";
import { setupCommand } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { extractSummary, extractWith, withExtractOptions } from "../extract-options.js";
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
    async (args) => {
      const started = Date.now();
      const { config, logger, secrets } = await setupCommand(args, ctx);
      const apiKey = await readApiKey(config, ctx.env, { logger });
      secrets.push(apiKey);
      const db = await openDatabase(config.db);
      try {
        const result = await extractWith({ config, flags: args, db, ctx, logger, apiKey });
        ctx.stdout.write(extractSummary(result, (Date.now() - started) / 1000));
      } finally {
        db.close();
      }
    },
  );
}
