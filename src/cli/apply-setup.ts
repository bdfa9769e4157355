/**
 * What `apply` reads before it opens anything: the settings (of the portal `--portal` names, as
 * extract resolves them), the API key unless it is a dry run, and the refusals of what cannot be
 * applied at all (no address to send to, no database to compare the file with).
 */
import { existsSync } from "node:fs";
import { missingBaseUrl } from "../config/portal-address.js";
import { portalNotChosen } from "../config/portal-choice.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { requireConfiguredPortal } from "./all-portals.js";
import {
  type CommandSetup,
  dbSetting,
  type SettingsHook,
  setupCommand,
  setupPortalCommand,
} from "./command-setup.js";
import type { CliContext } from "./context.js";
import { topLevelDatabase } from "./unchosen-portal-database.js";

/** The setup of an apply: the key and where it came from are empty for a dry run. */
export interface ApplySetup {
  readonly setup: CommandSetup;
  readonly apiKey: string;
  readonly keySource: string;
}

/** apply takes one portal at a time: the advice never names --all-portals. */
const ONE_PORTAL = { allPortals: false } as const;

/** The settings, and the key unless it is a dry run; refuses what cannot be applied at all. */
export async function applySetup(
  args: { dryRun: boolean; portal: string | undefined },
  argv: Readonly<Record<string, unknown>>,
  ctx: CliContext,
  settled: SettingsHook | undefined,
): Promise<ApplySetup> {
  // A name the config file lacks is refused as extract refuses it, before any setting is used.
  if (args.portal !== undefined) await requireConfiguredPortal(args.portal, argv, ctx, false);
  const flags = { ...argv, format: undefined, param: undefined };
  // A dry run reads only the local database: it needs no key.
  const setup = args.dryRun
    ? await setupCommand(flags, ctx, { settled })
    : await setupPortalCommand(flags, ctx, { settled, portalChoice: ONE_PORTAL });
  const apiKey = "apiKey" in setup ? String(setup.apiKey) : "";
  const keySource = "keySource" in setup ? String(setup.keySource) : "";
  const { config } = setup;
  if (!args.dryRun && !config.baseUrl) throw missingBaseUrl(config);
  if (!existsSync(config.db)) {
    const missing = `database ${config.db} does not exist`;
    // Without --portal in a folder of portals, the top-level database meant is one of theirs;
    // one --db or the environment named is simply not there.
    const unchosen = topLevelDatabase(config)
      ? portalNotChosen(config, { missing, code: "not-found", ...ONE_PORTAL })
      : undefined;
    if (unchosen !== undefined) throw unchosen;
    const extract = config.portal === undefined ? "extract" : `extract --portal ${config.portal}`;
    // The diff, the checks of ids and the record of what was done all live in the database.
    throw new LmsExportError(
      "not-found",
      `${missing}; run "lms-export ${extract}" first (apply compares the file with it) or check ${dbSetting(config)}`,
    );
  }
  return { setup, apiKey, keySource };
}
