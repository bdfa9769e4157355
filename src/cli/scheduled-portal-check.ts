/**
 * What `schedule` checks when it starts a command that talks to the portal (`run`, `extract`):
 * the portal it names, its address and a key it can read, for each portal of the config file with
 * --all-portals. A missing address, a key file that is not there, or a --portal the file does not
 * list would otherwise wait for the first tick, a week later, to fail every run the same way.
 */
import { readApiKey } from "../config/api-key.js";
import { requireBaseUrl } from "../config/portal-address.js";
import { resolveConfig } from "../config/resolve.js";
import { silentLogger } from "../log/logger.js";
import {
  configuredPortals,
  refuseAllPortalsTargets,
  refuseRunAllPortals,
  requireConfiguredPortal,
} from "./all-portals.js";
import type { CliContext } from "./context.js";

/** The scheduled commands that need the portal's address and key at each run. */
const TALKS_TO_PORTAL = ["run", "extract"];

/**
 * Contract: does nothing unless `args` are a `run`, an `extract` or a `report --portal` (`parsed` is the command line
 * as the CLI's own definitions read it, `ctx` the runs' own); otherwise throws the bad input the
 * run would stop with for its portal, address or key. The key read is dropped at once, never
 * shown: the schedule's log names the command, not the key.
 */
export async function checkScheduledPortal(
  args: readonly string[],
  parsed: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<void> {
  if (!TALKS_TO_PORTAL.includes(args[0] ?? "")) {
    // `report --portal` reads that portal's database: the name must be one the file lists.
    if (args[0] === "report" && typeof parsed.portal === "string") {
      await requireConfiguredPortal(parsed.portal, parsed, ctx);
    }
    return;
  }
  if (args[0] === "run") refuseRunAllPortals(parsed);
  if (parsed.allPortals === true) {
    refuseAllPortalsTargets(parsed);
    const { names } = await configuredPortals(parsed, ctx);
    for (const portal of names) {
      await checkAddressAndKey({ ...parsed, portal, allPortals: false }, ctx);
    }
    return;
  }
  if (typeof parsed.portal === "string") {
    await requireConfiguredPortal(parsed.portal, parsed, ctx);
  }
  await checkAddressAndKey(parsed, ctx);
}

async function checkAddressAndKey(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<void> {
  const config = await resolveConfig({ flags, env: ctx.env, cwd: ctx.cwd, isTTY: false });
  requireBaseUrl(config);
  await readApiKey(config, ctx.env, { logger: silentLogger, signal: ctx.signal });
}
