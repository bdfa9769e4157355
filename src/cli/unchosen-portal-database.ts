/**
 * A command that reads the top-level database (`report`, `publish`), run without --portal in a
 * folder whose config file lists portals, where that database was never made: the portals'
 * databases are the ones extracted, so the refusal names them and --portal.
 */
import type { PortalChoiceSettings } from "../config/portal-choice.js";
import { portalNotChosen } from "../config/portal-choice.js";
import type { ResolvedConfig } from "../config/resolve.js";
import { DatabaseMissingError } from "../load/open-errors.js";
import type { DatabaseSettings } from "./command-setup.js";

/**
 * Whether `config`'s database is the top-level one (the default, or the config file's `db`), not
 * one a flag, the environment or a portal named: where a config file of portals means the
 * portals' databases hold the data.
 */
export function topLevelDatabase(config: Pick<ResolvedConfig, "origins">): boolean {
  const origin = config.origins.db;
  return origin === "default" || origin === "file";
}

/**
 * A top-level database (the default one, or the config file's `db`) that is not there, when the
 * config file lists portals and none was chosen: their databases are the ones extracted, so the
 * message names them rather than advising an extract that would need a top-level address.
 */
export function unchosenPortalDatabase(
  error: unknown,
  config: DatabaseSettings & PortalChoiceSettings & Pick<ResolvedConfig, "origins">,
): Error | undefined {
  if (!(error instanceof DatabaseMissingError) || !topLevelDatabase(config)) return undefined;
  const missing = `database ${config.db} does not exist`;
  return portalNotChosen(config, { missing, code: error.code, allPortals: true });
}
