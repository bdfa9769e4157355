/**
 * What `report` reads: the database file (the default), a lake's latest snapshots (`--lake DIR`),
 * or every portal's database of the config file together (`--all-portals`), the last two with a
 * `portal` column on every table.
 */
import { resolve } from "node:path";
import type { Argv } from "yargs";
import type { LmsDatabase } from "../load/database.js";
import { openLake } from "../publish/lake/lake-views.js";
import { openPortalsDatabase } from "../report/portals-database.js";
import { portalDatabases } from "./all-portals.js";
import { withDatabase } from "./command-setup.js";
import type { CliContext } from "./context.js";

export function withReportSourceOptions<T>(y: Argv<T>) {
  return y
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
    .conflicts("lake", "all-portals");
}

/** Runs `use` on the source the flags name and closes it however `use` ends. */
export async function withReportSource(
  args: Readonly<Record<string, unknown>> & { lake?: string | undefined; allPortals?: boolean },
  ctx: CliContext,
  db: string,
  use: (db: Pick<LmsDatabase, "connect">) => Promise<void>,
): Promise<void> {
  if (args.lake === undefined && !args.allPortals) {
    await withDatabase(db, { readOnly: true }, use);
    return;
  }
  const source =
    args.lake !== undefined
      ? await openLake(resolve(ctx.cwd, args.lake))
      : await openPortalsDatabase(await portalDatabases(args, ctx));
  try {
    await use(source);
  } finally {
    source.close();
  }
}
