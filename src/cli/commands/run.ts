import type { Argv } from "yargs";
import { readApiKey } from "../../config/api-key.js";
import { openDatabase } from "../../load/database.js";
import { runReports } from "../../report/run-report.js";
import { setupCommand } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { extractSummary, extractWith, withExtractOptions } from "../extract-options.js";
import {
  withConnectionOptions,
  withDbOption,
  withLogOptions,
  withOutputOptions,
  withParamOption,
} from "../options.js";
import { reportSummary } from "../report-summary.js";

export function registerRun(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "run <reports..>",
    "Extract, then write the named reports (the scheduled job)",
    (y) =>
      withParamOption(
        withOutputOptions(
          withExtractOptions(withLogOptions(withDbOption(withConnectionOptions(y)))),
        ),
      )
        .positional("reports", {
          type: "string",
          array: true,
          demandOption: true,
          description: "Report or query names (see `lms-export list`), or paths to .sql files",
        })
        .option("neutralise-formulas", {
          type: "boolean",
          default: true,
          description:
            "Prefix text starting with = + - @ tab CR LF with ' in CSV and Excel; --no-neutralise-formulas writes it as it is",
        })
        .example(
          "$0 run weekly-compliance --incremental",
          "refresh the database, then the weekly workbook",
        )
        .example(
          "$0 run completion-overview --format csv --out reports/",
          "CSV only, into reports/",
        ),
    async (args) => {
      const started = Date.now();
      const { config, logger, secrets } = await setupCommand(args, ctx);
      const apiKey = await readApiKey(config, ctx.env, { logger });
      secrets.push(apiKey);
      const db = await openDatabase(config.db);
      try {
        const result = await extractWith({ config, flags: args, db, ctx, logger, apiKey });
        ctx.stdout.write(extractSummary(result, (Date.now() - started) / 1000));
        const reports = await runReports(db, args.reports, {
          outDir: config.outDir,
          ...(config.formats ? { formats: config.formats } : {}),
          params: config.reportParams,
          neutraliseFormulas: args.neutraliseFormulas,
          logger,
          cwd: ctx.cwd,
        });
        ctx.stdout.write(reportSummary(reports));
      } finally {
        db.close();
      }
    },
  );
}
