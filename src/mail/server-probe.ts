/**
 * The mail server tried as a mailing would use it, sending nothing (`check --mail`): connected,
 * greeted, logged in, the sender offered and the transaction dropped (sender-probe.ts). A health
 * check must answer in seconds, so it waits far less for the server than a mailing does
 * (smtp-attempt.ts: 30 s to be greeted, 120 s for an answer): a silent server fails it, naming
 * the step it kept silent at and for how long.
 */
import { offerSender } from "./sender-probe.js";
import type { MailSettings } from "./settings.js";
import { silenceText } from "./silent-step.js";
import { type OpenConnection, openConnection, SmtpAttemptError } from "./smtp-attempt.js";

/** How long the probe waits to be connected and greeted, and then for each answer. */
export const PROBE_LIMIT_MS = 10_000;

export interface ProbeOptions {
  /** Closes the connection at once: a stopped check does not wait even the probe's limit. */
  signal: AbortSignal;
  /** Where the server's URL was set (LMS_SMTP_URL, a config file), for the advice. */
  source: string;
  /** The probe's waits, PROBE_LIMIT_MS unless given. */
  limitMs?: number;
}

/**
 * Connects, logs in and offers the sender, then says goodbye: undefined when all went well, or
 * the line saying what failed (it may hold what the server answered: redact before showing).
 */
export async function probeMailServer(
  settings: MailSettings,
  options: ProbeOptions,
): Promise<string | undefined> {
  const { signal } = options;
  const limitMs = options.limitMs ?? PROBE_LIMIT_MS;
  const limits = { connectionTimeout: limitMs, greetingTimeout: limitMs, socketTimeout: limitMs };
  let open: OpenConnection;
  try {
    open = await openConnection(settings, () => undefined, signal, limits);
  } catch (error) {
    const failure = error instanceof SmtpAttemptError ? error : new SmtpAttemptError(error, false);
    return (
      silence(failure, settings, limitMs, options.source) ?? openFailure(failure, settings.display)
    );
  }
  const stop = () => open.connection.close();
  signal.addEventListener("abort", stop, { once: true });
  try {
    const refusal = await offerSender(open, settings.from);
    open.connection.quit();
    return refusal === undefined ? undefined : `${settings.display}: ${refusal}`;
  } catch (error) {
    open.connection.close();
    if (error instanceof SmtpAttemptError) {
      const silent = silence(error, settings, limitMs, options.source);
      if (silent !== undefined) return silent;
    }
    const why = error instanceof Error ? error.message : String(error);
    return `${settings.display} greeted, then failed when offered the sender (${why})`;
  } finally {
    signal.removeEventListener("abort", stop);
  }
}

/** The line of a server that kept silent until the probe's wait ran out, naming the step. */
function silence(
  failure: SmtpAttemptError,
  settings: MailSettings,
  limitMs: number,
  source: string,
): string | undefined {
  if (failure.silentAt === undefined) return undefined;
  const what = silenceText(failure.silentAt, limitMs);
  // No answer at all points at the address; silence later, at a server that is there but stuck.
  const advice =
    failure.silentAt === "connection" || failure.silentAt === "greeting"
      ? `check the mail server's address and port (from ${source}) or that the server is up`
      : "the server is there but stuck; try again later, or ask its administrator";
  return `${settings.display} ${what}; ${advice}`;
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
