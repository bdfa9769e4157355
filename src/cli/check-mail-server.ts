/**
 * `check --mail`: connects to the mail server as `report --mail` would (TLS as the URL asks,
 * the login when a user is named), offers the sender and drops the transaction before any
 * recipient (server-probe.ts), says goodbye and sends nothing. The settings line checks only
 * what can be told without the server; a password changed, a firewall closed, a certificate
 * renewed wrongly or a sender the server no longer takes would otherwise first show on the
 * Monday the reports go out.
 */
import type { ResolvedConfig } from "../config/resolve.js";
import { createRedactor } from "../log/redact.js";
import { probeMailServer } from "../mail/server-probe.js";
import { type MailSettings, resolveMailSettings } from "../mail/settings.js";
import { checkSignal } from "../report/interruption.js";
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
  checkSignal(signal, "check --mail");
  const failure = await probeMailServer(settings, { signal, source: config.sources.smtpUrl });
  // Stopped (Ctrl-C) while the server kept silent: a stop, not the server's failure.
  checkSignal(signal, "check --mail");
  if (failure !== undefined) {
    line("failed", WHAT, redact.text(failure));
    return;
  }
  const login = settings.user === undefined ? "no login asked" : "logged in";
  line(
    "ok",
    WHAT,
    `${settings.display}: greeted, ${login}, sender ${settings.from} taken; nothing sent`,
  );
}
