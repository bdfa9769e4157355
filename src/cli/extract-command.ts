/**
 * The `extract` command's work, which `run` repeats before writing its reports: settings and API
 * key, the database opened for writing, the extract, its summary on stdout.
 */
import type { ExtractResult } from "../extract/extract.js";
import type { LmsDatabase } from "../load/database.js";
import {
  type PortalCommandSetup,
  type SettingsHook,
  setupPortalCommand,
  withDatabase,
} from "./command-setup.js";
import type { CliContext } from "./context.js";
import {
  checkExtractFlags,
  type ExtractFlags,
  extractSummary,
  extractWith,
} from "./extract-options.js";
import { namingKeySource } from "./key-refusal.js";
import { namingRunToResume, resumeTarget } from "./portal-resume-hint.js";

/**
 * Extracts into the configured database and prints the summary. `before` runs with the command's
 * setup before anything is fetched (checks that must not wait for a long extract); `after` runs
 * once the extract is merged, on the database opened read-only (it is not held during the
 * extract, so others can read it meanwhile). Answers the extract's result (its run id).
 */
export async function extractCommand(
  args: ExtractFlags & Readonly<Record<string, unknown>>,
  ctx: CliContext,
  hooks: {
    /** Runs with the settings, before the API key is read (setupCommand's hook). */
    settled?: SettingsHook;
    before?: (setup: PortalCommandSetup) => Promise<void>;
    after?: (db: LmsDatabase, setup: PortalCommandSetup) => Promise<void>;
    /** Whether the command takes --all-portals, for the advice when no portal was chosen. */
    allPortals?: boolean;
  } = {},
): Promise<ExtractResult> {
  const started = Date.now();
  const allPortals = hooks.allPortals ?? false;
  const setup = await setupPortalCommand(args, ctx, {
    portalChoice: { allPortals },
    settled: async (settings) => {
      await hooks.settled?.(settings);
      // A bad --since or --only is refused before the key is read or the database opened, and
      // after whom to tell is known: a cron line's typo is a failure like any other.
      checkExtractFlags(args);
    },
  });
  await hooks.before?.(setup);
  const { config, logger, apiKey } = setup;
  const waitSeconds = typeof args.wait === "number" ? args.wait : undefined;
  const result = await extractWith({
    config,
    flags: args,
    db: config.db,
    ...(waitSeconds !== undefined ? { waitSeconds } : {}),
    ctx,
    logger,
    apiKey,
  }).catch((error: unknown) => {
    const target = resumeTarget(args, config, ctx.cwd);
    throw namingRunToResume(namingKeySource(error, setup.keySource), target);
  });
  ctx.stdout.write(extractSummary(result, (Date.now() - started) / 1000));
  const { after } = hooks;
  if (!after) return result;
  const open = { readOnly: true, wait: { seconds: waitSeconds, logger } };
  await withDatabase(config, open, (db) => after(db, setup));
  return result;
}
