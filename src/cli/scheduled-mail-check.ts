/**
 * What `schedule` checks when it starts a command that mails (`-- run weekly-compliance --mail`):
 * the mail settings and the --mail-to and --mail-only addresses the runs will use, so a missing
 * LMS_SMTP_URL or a bad address stops the schedule at once instead of failing every Monday at six;
 * and the failure recipients (--mail-failures-to) of a command that tells them, with or without
 * --mail.
 */
import { type ResolvedConfig, resolveConfig } from "../config/resolve.js";
import { parseAddressList } from "../mail/address.js";
import { resolveMailSettings } from "../mail/settings.js";
import type { CliContext } from "./context.js";
import { mailOnlyTargets } from "./mail-only-option.js";
import { defaultRecipients } from "./mail-step.js";

/**
 * Contract: does nothing unless the parsed command line holds --mail, --mail-to or --mail-only,
 * or the command's resolved settings (`config`) name failure recipients; otherwise throws the
 * bad input the scheduled command itself would give for its mail settings or addresses. `config`
 * is the command's settings when already resolved from the same line (those of every command
 * that takes failure recipients are); the password file is read to check it, and the password
 * dropped.
 */
export async function checkScheduledMail(
  parsed: Readonly<Record<string, unknown>>,
  config: ResolvedConfig | undefined,
  ctx: CliContext,
): Promise<void> {
  // Before anything else: --mail-only without --mail is wrong even in a line that sends nothing.
  mailOnlyTargets(parsed);
  const mailTo = parsed["mail-to"];
  const mails = parsed.mail === true || mailTo !== undefined;
  const failuresTo = config?.mailFailuresTo;
  if (!mails && failuresTo === undefined) return;
  if (mailTo !== undefined) parseAddressList(String(mailTo), "--mail-to");
  const settings =
    config ?? (await resolveConfig({ flags: parsed, env: ctx.env, cwd: ctx.cwd, isTTY: false }));
  if (failuresTo !== undefined) parseAddressList(failuresTo, settings.sources.mailFailuresTo);
  if (mails) defaultRecipients(settings);
  await resolveMailSettings(settings, ctx.env, { signal: ctx.signal });
}
