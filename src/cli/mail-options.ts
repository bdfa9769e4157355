/**
 * The mail options of `report` and `run`: --mail, --mail-to, --mail-only, and the mail server
 * settings that can also come from the environment or the config file. The password is never an
 * option: a hidden --smtp-password exists only to be refused with a message saying where it goes.
 */
import type { Argv } from "yargs";
import { DEFAULT_SMTP_CONNECTIONS, MAX_SMTP_CONNECTIONS } from "../config/defaults.js";

const MAIL = "Mail:";

export function withMailOptions<T>(y: Argv<T>) {
  // The server's options after --mail's choices, as --help lists them.
  const chosen = y
    .option("mail", {
      type: "boolean",
      group: MAIL,
      description: "Mail each report as its definition's mail block says",
    })
    .option("mail-to", {
      type: "string",
      group: MAIL,
      description:
        "Mail each report, whole, to these addresses instead (comma-separated; implies --mail)",
    })
    .option("mail-only", {
      type: "string",
      group: MAIL,
      description:
        "With --mail, send only the messages to these addresses, each as the full run builds it (comma-separated, repeatable; ADDR:share or ADDR:unassigned picks one of an address's two messages of a split report): to send again what a run could not deliver",
    });
  return withMailServerOptions(chosen)
    .option("mail-from", {
      type: "string",
      group: MAIL,
      description: "Sender address (env LMS_MAIL_FROM; config mail.from)",
    })
    .option("mail-default-to", {
      type: "string",
      group: MAIL,
      description:
        "Who gets, with --mail, a report without a mail block of its own (comma-separated; env LMS_MAIL_DEFAULT_TO; config mail.defaultTo)",
    })
    .option("mail-failures-to", {
      type: "string",
      group: MAIL,
      description:
        "Tell these addresses by mail when the command fails, with its error (comma-separated; env LMS_MAIL_FAILURES_TO; config mail.failuresTo): for scheduled runs",
    });
}

/** How the mail server is reached: its address, password file, security and connections. */
function withMailServerOptions<T>(y: Argv<T>) {
  return y
    .option("smtp-url", {
      type: "string",
      group: MAIL,
      description: "Mail server, smtp://[user@]host:port or smtps://... (env LMS_SMTP_URL)",
    })
    .option("smtp-password-file", {
      type: "string",
      group: MAIL,
      description:
        "File holding the mail server password (env LMS_SMTP_PASSWORD_FILE, or LMS_SMTP_PASSWORD)",
    })
    .option("allow-insecure-smtp", {
      type: "boolean",
      group: MAIL,
      description:
        "Allow an unencrypted session to a mail server that is not this machine (env LMS_ALLOW_INSECURE_SMTP)",
    })
    .option("smtp-connections", {
      type: "number",
      group: MAIL,
      requiresArg: true,
      description: `Connections a mailing opens to the mail server at once, 1-${MAX_SMTP_CONNECTIONS} (default ${DEFAULT_SMTP_CONNECTIONS}; 1 sends one message at a time; env LMS_SMTP_CONNECTIONS; config mail.connections)`,
    })
    .option("smtp-password", { type: "string", hidden: true });
}
