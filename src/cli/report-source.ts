/**
 * What `report` reads: the database file (the default, or a portal's of the config file with
 * `--portal NAME`), a lake's latest snapshots (`--lake DIR`), or every portal's database of the
 * config file together (`--all-portals`), the last two with a `portal` column on every table.
 */

import type { Argv } from "yargs";
import type { PortalChoiceSettings } from "../config/portal-choice.js";
import type { ResolvedConfig } from "../config/resolve.js";
import { homeOf, settingPath } from "../config/setting-path.js";
import { type Logger, silentLogger } from "../log/logger.js";
import { openLake } from "../publish/lake/lake-views.js";
import type { ReadDatabase } from "../report/param-references.js";
import { openPortalsDatabase } from "../report/portals-database.js";
import type { ReportSource } from "../report/report-source.js";
import { configuredPortals, portalDatabases } from "./all-portals.js";
import { type DatabaseOpening, type DatabaseSettings, withDatabase } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { presentPortalDatabases } from "./missing-portal-databases.js";
import { warnStoppedRuns } from "./stopped-run-warning.js";
import { unchosenPortalDatabase } from "./unchosen-portal-database.js";
import { warnUnextracted } from "./unextracted-warning.js";

export function withReportSourceOptions<T>(y: Argv<T>) {
  return (
    y
      .option("lake", {
        type: "string",
        description:
          "Read a lake written by `publish --lake` (each portal's latest snapshot) instead of --db",
      })
      .option("all-portals", {
        type: "boolean",
        description:
          'Read every portal under "portals" in the config file together, with a portal column',
      })
      .option("portal", {
        type: "string",
        description:
          'Read the database of a portal under "portals" in the config file; its reports name it and go to a folder NAME under --out',
      })
      .conflicts("lake", "all-portals")
      // The lake and --all-portals read every portal: a report of them is not one portal's.
      .conflicts("portal", ["lake", "all-portals"])
      // Each reads its own databases (the lake's, or those of the config file's portals): a --db
      // beside them would be ignored without a word.
      .conflicts("db", ["lake", "all-portals"])
  );
}

/** The databases of the config file's portals that `report --all-portals` reads. */
async function presentDatabases(
  args: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  logger: Logger,
): Promise<{ name: string; db: string }[]> {
  const { names, configFile } = await configuredPortals(args, ctx);
  return presentPortalDatabases(await portalDatabases(args, ctx, names), configFile, logger);
}

/**
 * Runs `use` on the source the flags name and closes it however `use` ends. `use` also gets the
 * folders the source reads while queries run (the lake's), which must stay readable when file
 * access is restricted. `wait` waits for a database file another process holds.
 */
export async function withReportSource(
  args: Readonly<Record<string, unknown>> & { lake?: string | undefined; allPortals?: boolean },
  ctx: CliContext,
  config: DatabaseSettings & PortalChoiceSettings & Pick<ResolvedConfig, "origins">,
  options: Pick<DatabaseOpening, "wait"> & { logger: Logger },
  use: (
    db: ReportSource,
    reads: readonly string[],
    databases: readonly ReadDatabase[],
  ) => Promise<void>,
): Promise<void> {
  const { logger } = options;
  if (args.lake === undefined && !args.allPortals) {
    await withDatabase(config, { readOnly: true, ...options }, async (opened) => {
      await warnUnextracted(opened, [{ name: config.portal, db: config.db }], logger);
      await warnStoppedRuns(opened, logger);
      await use(opened, [], [{ portal: config.portal, db: config.db }]);
    }).catch((error: unknown) => {
      throw unchosenPortalDatabase(error, config) ?? error;
    });
    return;
  }
  const lake =
    args.lake === undefined
      ? undefined
      : settingPath({ dir: ctx.cwd, home: homeOf(ctx.env) }, args.lake);
  const databases = lake === undefined ? await presentDatabases(args, ctx, logger) : [];
  const source =
    lake !== undefined
      ? await openLake(lake, config.duckdbMemoryLimit, logger)
      : await openPortalsDatabase(databases, config.duckdbMemoryLimit, {
          seconds: options.wait?.seconds,
          logger: options.wait?.logger ?? silentLogger,
          signal: ctx.signal,
        });
  try {
    await warnUnextracted(source, databases, logger);
    await warnStoppedRuns(source, logger);
    const read = databases.map(({ name, db }) => ({ portal: name, db }));
    await use(source, lake === undefined ? [] : [lake], read);
  } finally {
    source.close();
  }
}
