/**
 * What every command that reads settings does first: resolve the configuration once and build the
 * logger, with a secrets list the logger redacts (the key is added as soon as it is read).
 */
import { type ResolvedConfig, resolveConfig } from "../config/resolve.js";
import { createCliLogger } from "../log/cli-logger.js";
import { streamIsTTY } from "../log/color.js";
import type { Logger } from "../log/logger.js";
import type { CliContext } from "./context.js";

export interface CommandSetup {
  readonly config: ResolvedConfig;
  readonly logger: Logger;
  /** Strings to redact from every log line; push the API key here once read. */
  readonly secrets: string[];
}

export async function setupCommand(
  flags: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<CommandSetup> {
  const config = await resolveConfig({
    flags,
    env: ctx.env,
    cwd: ctx.cwd,
    isTTY: streamIsTTY(ctx.stderr),
  });
  const secrets: string[] = [];
  const logger = createCliLogger({
    format: config.logFormat,
    quiet: config.quiet,
    stream: ctx.stderr,
    env: ctx.env,
    secrets: () => secrets,
  });
  return { config, logger, secrets };
}
