import { resolve } from "node:path";
import type { Argv } from "yargs";
import { UsageError } from "../../cli-error.js";
import { publishLake } from "../../publish/lake/publish-lake.js";
import { checkPortalName } from "../../publish/portal-name.js";
import { setupCommand, withDatabase } from "../command-setup.js";
import type { CliContext } from "../context.js";
import { withConfigOption, withDbOption, withLogOptions } from "../options.js";

const TARGET = "Where to:";

/**
 * `publish --lake DIR`: copies the published tables out of the database (opened read-only) as a
 * Parquet lake. Prints one line per partition written.
 */
export function registerPublish(root: Argv, ctx: CliContext): Argv {
  return root.command(
    "publish",
    "Copy the tables to a Parquet lake (Hive layout) for other engines and BI tools",
    (y) =>
      withLogOptions(withDbOption(withConfigOption(y)))
        .option("lake", {
          type: "string",
          group: TARGET,
          description: "Lake folder: DIR/<table>/portal=<name>/snapshot_date=<day>/part-0.parquet",
        })
        .option("portal", {
          type: "string",
          group: TARGET,
          description: 'Portal name of this database in the lake (default "default")',
        })
        .option("snapshot-date", {
          type: "string",
          group: TARGET,
          description: "Day of the snapshot as YYYY-MM-DD (default: today in UTC)",
        })
        .example("$0 publish --lake /srv/lake --portal acme", "this week's snapshot of acme")
        .example(
          "aws s3 sync /srv/lake s3://bucket/lake --exclude _lake.json && aws s3 cp /srv/lake/_lake.json s3://bucket/lake/",
          "then ship it: data first, the manifest last",
        ),
    async (args) => {
      if (args.lake === undefined) {
        throw new UsageError("name a target: --lake DIR");
      }
      const portal = args.portal === undefined ? undefined : checkPortalName(args.portal);
      const { config, logger } = await setupCommand(args, ctx);
      await withDatabase(config.db, { readOnly: true }, async (db) => {
        const lakeDir = resolve(ctx.cwd, args.lake!);
        const result = await publishLake(db, {
          lakeDir,
          ...(portal ? { portal } : {}),
          ...(args.snapshotDate ? { snapshotDate: args.snapshotDate } : {}),
          logger,
        });
        const lines = result.partitions.map((p) => `  ${p.path} ${p.rows} rows`);
        ctx.stdout.write(
          `lake ${lakeDir}: portal ${result.portal}, ${result.snapshotDate}\n${lines.join("\n")}\n`,
        );
      });
    },
  );
}
