/**
 * The `extract` command's work, which `run` repeats before writing its reports: settings and API
 * key, the database opened for writing, the extract, its summary on stdout.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import type { LmsDatabase } from "../load/database.js";
import { type PortalCommandSetup, setupPortalCommand, withDatabase } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { type ExtractFlags, extractSummary, extractWith } from "./extract-options.js";

/**
 * Extracts into the configured database and prints the summary. `before` runs with the command's
 * setup before anything is fetched (checks that must not wait for a long extract); `after` runs
 * once the extract is merged, on the database opened read-only (it is not held during the
 * extract, so others can read it meanwhile).
 */
export async function extractCommand(
  args: ExtractFlags & Readonly<Record<string, unknown>>,
  ctx: CliContext,
  hooks: {
    before?: (setup: PortalCommandSetup) => Promise<void>;
    after?: (db: LmsDatabase, setup: PortalCommandSetup) => Promise<void>;
  } = {},
): Promise<void> {
  const started = Date.now();
  const setup = await setupPortalCommand(args, ctx);
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
    throw namingKeySource(error, setup.keySource);
  });
  ctx.stdout.write(extractSummary(result, (Date.now() - started) / 1000));
  const { after } = hooks;
  if (!after) return;
  const open = { readOnly: true, wait: { seconds: waitSeconds, logger } };
  await withDatabase(config, open, (db) => after(db, setup));
}

/**
 * The client's refusal message can only guess where the key came from (it never sees the
 * settings); with several portals and LMS_API_KEY beside key files, the user needs the real place.
 */
function namingKeySource(error: unknown, keySource: string): unknown {
  if (!(error instanceof LmsExportError) || error.code !== "auth-refused") return error;
  const guess = "check the key file given with --api-key-file or LMS_API_KEY_FILE";
  const message = error.message.includes(guess)
    ? error.message.replace(guess, `check the key in ${keySource}`)
    : `${error.message} (the key was read from ${keySource})`;
  return new LmsExportError("auth-refused", message, { cause: error });
}
