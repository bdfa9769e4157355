import type { Argv } from "yargs";
import { requireConfiguredPortal } from "../all-portals.js";
import type { CliContext } from "../context.js";
import { extractAllPortals } from "../extract-all-portals.js";
import { extractCommand } from "../extract-command.js";
import { withExtractOptions } from "../extract-options.js";
import {
  batchNoticeTarget,
  FailureNotice,
  portalCommandName,
  withFailureNotice,
} from "../failure-notice-step.js";
import { withConnectionOptions, withDbOption, withLogOptions } from "../options.js";
import { withPortalOptions } from "../portal-options.js";
import { withWaitOption } from "../wait-option.js";

export function registerExtract(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "extract",
    "Copy everything the portal exposes into the DuckDB file",
    (y) =>
      withPortalOptions(
        withWaitOption(withExtractOptions(withLogOptions(withDbOption(withConnectionOptions(y))))),
        'A portal under "portals" in the config file: its address, key, concurrency and database',
      )
        // Said again here: only extract takes --resume with --all-portals (run refuses the latter).
        .option("resume", {
          type: "boolean",
          group: "Extract:",
          description:
            "Continue the interrupted run without fetching finished work again; with --all-portals, the last --all-portals batch: the portals it finished are not extracted again",
        })
        .example(
          "LMS_API_KEY_FILE=~/.lms-key $0 extract --base-url https://lms.example.com/api-v2",
          "full copy into ./lms.duckdb",
        )
        .example(
          "$0 extract --incremental --db weekly.duckdb",
          "only what changed since the last run",
        )
        .example("$0 extract --resume", "continue a run that was interrupted")
        .example("$0 extract --only grp,user_grp", "refresh two tables")
        .example("$0 extract --all-portals", "every portal of the config file, each its own file")
        .example(
          "$0 extract --all-portals --resume",
          "continue the last --all-portals batch: the portals it finished are not extracted again",
        ),
    async (args) => {
      // Failure recipients come from the environment or the config file: extract has no mail flags.
      if (args.allPortals) {
        // The batch's own settings, read once here: each portal's extract reads its own.
        const notice = await batchNoticeTarget(args, ctx, portalCommandName("extract", args));
        await withFailureNotice(ctx, notice, () => extractAllPortals(args, ctx));
        return;
      }
      const notice = new FailureNotice(ctx, portalCommandName("extract", args), args);
      await notice.run(async () => {
        if (args.portal !== undefined) await requireConfiguredPortal(args.portal, args, ctx);
        await extractCommand(args, ctx, { allPortals: true, settled: notice.settled });
      });
    },
  );
}
