/**
 * What `schedule` checks when it starts a command that mails (`-- run weekly-compliance --mail`):
 * the mail settings and --mail-to addresses the runs will use, so a missing LMS_SMTP_URL or a bad
 * address stops the schedule at once instead of failing every Monday at six.
 */
import { resolveConfig } from "../config/resolve.js";
import { parseAddressList } from "../mail/address.js";
import { resolveMailSettings } from "../mail/settings.js";
import type { CliContext } from "./context.js";
import { defaultRecipients } from "./mail-step.js";

/** Flags of the scheduled command that take a value and decide its mail settings. */
const VALUE_FLAGS = new Set([
  "mail-to",
  "mail-default-to",
  "smtp-url",
  "mail-from",
  "smtp-password-file",
  "config",
]);
const BOOLEAN_FLAGS = new Set(["mail", "allow-insecure-smtp"]);

/** The mail-related flags among `args` (`--flag value` or `--flag=value`). */
function mailFlags(args: readonly string[]): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(args[i] ?? "");
    const name = match?.[1];
    if (name === undefined) continue;
    if (BOOLEAN_FLAGS.has(name)) flags[name] = match?.[2] !== "false";
    if (VALUE_FLAGS.has(name)) flags[name] = match?.[2] ?? args[++i];
  }
  return flags;
}

/**
 * Contract: does nothing unless `args` hold --mail or --mail-to; otherwise throws the bad input
 * the scheduled command itself would give for its mail settings or addresses. The password file
 * is read to check it, and the password dropped.
 */
export async function checkScheduledMail(args: readonly string[], ctx: CliContext): Promise<void> {
  const flags = mailFlags(args);
  if (flags.mail !== true && flags["mail-to"] === undefined) return;
  if (flags["mail-to"] !== undefined) parseAddressList(String(flags["mail-to"]), "--mail-to");
  const config = await resolveConfig({ flags, env: ctx.env, cwd: ctx.cwd, isTTY: false });
  defaultRecipients(config);
  await resolveMailSettings(config, ctx.env);
}
