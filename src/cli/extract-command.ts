/**
 * The `extract` command's work, which `run` repeats before writing its reports: settings and API
 * key, the database opened for writing, the extract, its summary on stdout.
 */
import type { LmsDatabase } from "../load/database.js";
import { type PortalCommandSetup, setupPortalCommand, withDatabase } from "./command-setup.js";
import type { CliContext } from "./context.js";
import { type ExtractFlags, extractSummary, extractWith } from "./extract-options.js";

/**
 * Extracts into the configured database and prints the summary. `before` runs with the command's
 * setup before anything is fetched (checks that must not wait for a long extract); `after` runs
 * on the same open database (before it is closed).
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
  const open = { memoryLimit: config.duckdbMemoryLimit, wait: { seconds: waitSeconds, logger } };
  await withDatabase(config.db, open, async (db) => {
    const result = await extractWith({ config, flags: args, db, ctx, logger, apiKey });
    ctx.stdout.write(extractSummary(result, (Date.now() - started) / 1000));
    await hooks.after?.(db, setup);
  });
}
