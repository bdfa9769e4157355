/**
 * The `extract` command's work, which `run` repeats before writing its reports: settings and API
 * key, the database opened for writing, the extract, its summary on stdout.
 */
import type { LmsDatabase } from "../load/database.js";
import { type PortalCommandSetup, setupPortalCommand, withDatabase } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { type ExtractFlags, extractSummary, extractWith } from "./extract-options.js";

/**
 * Extracts into the configured database and prints the summary; `after` then runs on the same
 * open database (before it is closed) with the command's setup.
 */
export async function extractCommand(
  args: ExtractFlags & Readonly<Record<string, unknown>>,
  ctx: CliContext,
  after?: (db: LmsDatabase, setup: PortalCommandSetup) => Promise<void>,
): Promise<void> {
  const started = Date.now();
  const setup = await setupPortalCommand(args, ctx);
  const { config, logger, apiKey } = setup;
  await withDatabase(config.db, {}, async (db) => {
    const result = await extractWith({ config, flags: args, db, ctx, logger, apiKey });
    ctx.stdout.write(extractSummary(result, (Date.now() - started) / 1000));
    await after?.(db, setup);
  });
}
