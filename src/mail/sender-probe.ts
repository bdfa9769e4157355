/**
 * Offering the sender without sending anything: MAIL FROM:<sender>, then RSET, which drops the
 * transaction before any recipient is named. A server that greets and takes the login may still
 * refuse every message at MAIL FROM (a login it asks for, 530; a sender this login may not use,
 * 5xx); only offering the sender shows it, and no one gets mail for it, since a message needs
 * RCPT TO and DATA, never given here.
 *
 * nodemailer sends MAIL FROM only as part of a whole message (with PIPELINING, RCPT TO and DATA
 * leave in the same write), so the commands go through its own command queue: the reply to each
 * is read as its replies to the others are.
 */
import type SMTPConnection from "nodemailer/lib/smtp-connection";
import { senderRefusal } from "./sender-refusal.js";
import { isTimeout, type SilentStep } from "./silent-step.js";
import { type OpenConnection, SmtpAttemptError } from "./smtp-attempt.js";
import { envelopeAddress, noSmtpUtf8 } from "./smtp-utf8.js";

/** The part of nodemailer's connection that writes one command and reads its reply. */
interface CommandQueue {
  _sendCommand(command: string): void;
  _responseActions: ((reply: string) => void)[];
}

/** What nodemailer's error gives for a reply that refused a command (sender-refusal.ts reads it). */
interface RefusedCommand extends Error {
  response: string;
  responseCode: number;
  command: string;
}

const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Offers `from` to the server of `open`, then drops the transaction. Answers undefined when the
 * server took the sender, or one line saying why it would take no message from it, with what to
 * set when that is known (sender-refusal.ts, as the mailing says it). Rejects when the connection
 * fails or ends meanwhile; the caller closes it either way.
 */
export async function offerSender(open: OpenConnection, from: string): Promise<string | undefined> {
  // The sender as a message's envelope gives it (smtp-utf8.ts): its domain in ASCII form.
  const sender = envelopeAddress(from, open.smtpUtf8);
  if (sender === undefined) return noSmtpUtf8(from);
  const utf8 = NON_ASCII.test(sender) ? " SMTPUTF8" : "";
  const reply = await command(open.connection, `MAIL FROM:<${sender}>${utf8}`, "MAIL FROM");
  if (!reply.startsWith("2")) {
    const refused = refusedCommand(reply, "MAIL FROM");
    if (reply.startsWith("4")) {
      // A temporary answer: the mailing tries such a message again (deliver.ts), so may succeed.
      return `the mail server did not take the sender ${from} for now (${refused.message}): a mailing would try each message again a few seconds later; run the check again in a while`;
    }
    return (
      senderRefusal(refused) ??
      `the mail server did not take the sender ${from} (${refused.message})`
    );
  }
  const reset = await command(open.connection, "RSET", "RSET");
  if (!reset.startsWith("2")) {
    return `the mail server took the sender ${from}, then refused to drop the transaction (${refusedCommand(reset, "RSET").message})`;
  }
  return undefined;
}

/**
 * The reply to `line`; rejects when the connection fails or ends before it came, and when the
 * server kept silent until the connection's wait ran out, with an SmtpAttemptError naming `step`.
 */
function command(connection: SMTPConnection, line: string, step: SilentStep): Promise<string> {
  const queue = connection as unknown as Partial<CommandQueue>;
  if (typeof queue._sendCommand !== "function" || !Array.isArray(queue._responseActions)) {
    // Only a nodemailer other than the one this was written against could lack them.
    return Promise.reject(
      new Error("this version of nodemailer cannot send a single SMTP command"),
    );
  }
  return new Promise<string>((resolve, reject) => {
    let lastError: unknown;
    const done = () => {
      connection.off("error", failed);
      connection.off("end", ended);
    };
    // nodemailer emits the error, then ends the connection: the error is the one that says why.
    const failed = (error: unknown) => {
      lastError = error;
    };
    const ended = () => {
      done();
      if (isTimeout(lastError)) reject(new SmtpAttemptError(lastError, false, true, false, step));
      else reject(lastError ?? new Error("the server closed the connection"));
    };
    connection.on("error", failed);
    connection.on("end", ended);
    queue._responseActions?.push((reply) => {
      done();
      resolve(reply);
    });
    queue._sendCommand?.(line);
  });
}

/** A refused command's error, worded as nodemailer words the refusals of a message's commands. */
function refusedCommand(reply: string, name: string): RefusedCommand {
  const what = name === "MAIL FROM" ? "Mail command failed" : "Command failed";
  return Object.assign(new Error(`${what}: ${reply.trim()}`), {
    response: reply,
    responseCode: Number(reply.slice(0, 3)),
    command: name,
  });
}
