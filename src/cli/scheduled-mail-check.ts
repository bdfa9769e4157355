/**
 * What `schedule` checks when it starts a command that mails (`-- run weekly-compliance --mail`):
 * the mail settings and the --mail-to and --mail-only addresses the runs will use, so a missing
 * LMS_SMTP_URL or a bad address stops the schedule at once instead of failing every Monday at six.
 */
import { type ResolvedConfig, resolveConfig } from "../config/resolve.js";
import { parseAddressList } from "../mail/address.js";
import { resolveMailSettings } from "../mail/settings.js";
import type { CliContext } from "./context.js";
import { mailOnlyTargets } from "./mail-only-option.js";
import { defaultRecipients } from "./mail-step.js";

/**
 * Contract: does nothing unless the parsed command line holds --mail, --mail-to or --mail-only;
 * otherwise throws the bad input the scheduled command itself would give for its mail settings
 * or addresses. `config` is the command's settings when already resolved from the same line; the
 * password file is read to check it, and the password dropped.
 */
export async function checkScheduledMail(
  parsed: Readonly<Record<string, unknown>>,
  config: ResolvedConfig | undefined,
  ctx: CliContext,
): Promise<void> {
  // Before anything else: --mail-only without --mail is wrong even in a line that sends nothing.
  mailOnlyTargets(parsed);
  const mailTo = parsed["mail-to"];
  if (parsed.mail !== true && mailTo === undefined) return;
  if (mailTo !== undefined) parseAddressList(String(mailTo), "--mail-to");
  const settings =
    config ?? (await resolveConfig({ flags: parsed, env: ctx.env, cwd: ctx.cwd, isTTY: false }));
  defaultRecipients(settings);
  await resolveMailSettings(settings, ctx.env, { signal: ctx.signal });
}
