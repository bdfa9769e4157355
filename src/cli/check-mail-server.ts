/**
 * `check --mail`: connects to the mail server as `report --mail` would (TLS as the URL asks,
 * the login when a user is named), offers the sender and drops the transaction before any
 * recipient (sender-probe.ts), says goodbye and sends nothing. The settings line checks only
 * what can be told without the server; a password changed, a firewall closed, a certificate
 * renewed wrongly or a sender the server no longer takes would otherwise first show on the
 * Monday the reports go out.
 */
import type { ResolvedConfig } from "../config/resolve.js";
import { createRedactor } from "../log/redact.js";
import { offerSender } from "../mail/sender-probe.js";
import { type MailSettings, resolveMailSettings } from "../mail/settings.js";
import { openConnection, SmtpAttemptError } from "../mail/smtp-attempt.js";
import type { CheckLine } from "./check-report-settings.js";

const WHAT = "mail server";

export async function checkMailServer(
  config: ResolvedConfig,
  env: Readonly<Record<string, string | undefined>>,
  line: CheckLine,
  signal: AbortSignal,
): Promise<void> {
  if (config.smtpUrl === undefined) {
    line(
      "failed",
      WHAT,
      "--mail: no mail server is configured; set LMS_SMTP_URL, or mail.smtpUrl in the config file",
    );
    return;
  }
  let settings: MailSettings;
  try {
    settings = await resolveMailSettings(config, env, { signal });
  } catch {
    // The mail settings line above says what is wrong with them.
    line("failed", WHAT, "not tried (the mail settings are wrong)");
    return;
  }
  // A server may echo the password it refused; it never reaches the screen.
  const redact = createRedactor(() => (settings.password ? [settings.password] : []));
  let refusal: string | undefined;
  try {
    const open = await openConnection(settings, () => undefined);
    try {
      refusal = await offerSender(open, settings.from);
    } catch (error) {
      open.connection.close();
      const why = error instanceof Error ? error.message : String(error);
      line(
        "failed",
        WHAT,
        redact.text(`${settings.display} greeted, then failed when offered the sender (${why})`),
      );
      return;
    }
    open.connection.quit();
  } catch (error) {
    const failure = error instanceof SmtpAttemptError ? error : new SmtpAttemptError(error, false);
    const text = failure.tls
      ? failure.message
      : `${settings.display} could not be reached or refused the login (${failure.message})`;
    line("failed", WHAT, redact.text(text));
    return;
  }
  if (refusal !== undefined) {
    line("failed", WHAT, redact.text(`${settings.display}: ${refusal}`));
    return;
  }
  const login = settings.user === undefined ? "no login asked" : "logged in";
  line(
    "ok",
    WHAT,
    `${settings.display}: greeted, ${login}, sender ${settings.from} taken; nothing sent`,
  );
}
