/**
 * `roster import` and `sql` take no --portal: run in a folder whose config file lists portals,
 * without --db, they are refused, and the refusal gives each portal's database as a --db to
 * type, so that the user need not work out the default `lms-NAME.duckdb` or a portal's `db`.
 */
import { portalDatabaseNotGiven } from "../config/portal-choice.js";
import type { ResolvedConfig } from "../config/resolve.js";
import type { LmsExportError } from "../errors/lms-export-error.js";
import { shownPath } from "../files/shown-path.js";
import { portalDatabases } from "./all-portals.js";
import type { CliContext } from "./context.js";

/**
 * Contract: the refusal for `config`, whose top-level database does not exist, naming each
 * portal's database; undefined when the config file lists no portal. A portal whose settings do
 * not resolve is left out of the list, as the refusal itself is what the user needs to see.
 */
export async function portalDatabaseRefusal(
  config: ResolvedConfig,
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<LmsExportError | undefined> {
  if (config.portals.length === 0) return undefined;
  const databases = await portalDatabases(flags, ctx, config.portals).catch(() => []);
  const shown = databases.map(({ name, db }) => ({ name, db: shownPath(ctx.cwd, db) }));
  return portalDatabaseNotGiven(config, shownPath(ctx.cwd, config.db), shown);
}
