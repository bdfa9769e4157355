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
import { type OpenConnection, openConnection, SmtpAttemptError } from "../mail/smtp-attempt.js";
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
  const failure = await tryServer(settings, signal);
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

/**
 * Connects, logs in and offers the sender, then says goodbye: undefined when all went well, or
 * the line saying what failed. `signal` closes the connection at once: a server that keeps silent
 * is not waited out (30 s for the greeting, 120 s for an answer).
 */
async function tryServer(settings: MailSettings, signal: AbortSignal): Promise<string | undefined> {
  checkSignal(signal, "check --mail");
  let open: OpenConnection;
  try {
    open = await openConnection(settings, () => undefined, signal);
  } catch (error) {
    const failure = error instanceof SmtpAttemptError ? error : new SmtpAttemptError(error, false);
    return openFailure(failure, settings.display);
  }
  const stop = () => open.connection.close();
  signal.addEventListener("abort", stop, { once: true });
  try {
    const refusal = await offerSender(open, settings.from);
    open.connection.quit();
    return refusal === undefined ? undefined : `${settings.display}: ${refusal}`;
  } catch (error) {
    open.connection.close();
    const why = error instanceof Error ? error.message : String(error);
    return `${settings.display} greeted, then failed when offered the sender (${why})`;
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/** The line of a connection that could not be made, greeted or logged in to `display`. */
function openFailure(failure: SmtpAttemptError, display: string): string {
  if (failure.tls) return `${display}: ${failure.message}`;
  // An answer other than a login's refusal, before the login: the server was reached and will
  // not hold a session (421 at its greeting: too busy, or this machine not let in).
  if (failure.code === "EPROTOCOL" && failure.response !== undefined) {
    const answer = failure.response.split("\n", 1)[0];
    return `${display} refused the session (${answer}): it takes no mail from here for now; try again later, or ask its administrator why`;
  }
  return `${display} could not be reached or refused the login (${failure.message})`;
}
