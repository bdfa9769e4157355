/**
 * What `schedule` checks when it starts a `publish --postgres URL`: the URL and the password
 * settings its runs will use. A URL holding a password must stop the schedule before its first
 * log line, which names the command: otherwise every "run started" line, and the command line of
 * every run, would carry the password until the run itself refused it.
 */
import { pgSettings } from "../publish/postgres/connection-settings.js";
import type { CliContext } from "./context.js";
import { checkPublishTargets } from "./publish-targets.js";

/**
 * Contract: does nothing unless `args` are a `publish` (`parsed` is the command line as the
 * CLI's own definitions read it); otherwise throws the bad input the run would give for its
 * targets, and with --postgres for its URL or password file. The password found is dropped.
 */
export async function checkScheduledPublish(
  args: readonly string[],
  parsed: Readonly<Record<string, unknown>>,
  ctx: CliContext,
): Promise<void> {
  if (args[0] !== "publish") return;
  checkPublishTargets(parsed);
  if (typeof parsed.postgres !== "string") return;
  await pgSettings(parsed.postgres, ctx.env, { signal: ctx.signal });
}
