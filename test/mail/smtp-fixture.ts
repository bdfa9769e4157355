/**
 * A real SMTP server on 127.0.0.1 (smtp-server, port 0) that keeps every message it accepts,
 * parsed back with mailparser, and counts the connections made to it (and keeps the envelope
 * commands as a client wrote them on a connection without TLS). Options make it require a
 * login, refuse the sender, some recipients or some messages (554 to their data), drop the connection once
 * the message data has arrived (a lost answer) or while it is arriving, or at the next message once a connection has
 * carried some (421, as a server ending a connection it will carry no more on), go down after
 * some messages (no new connection taken), act on a message
 * before answering it, hold a message's answer until the test lets it go, offer STARTTLS, or not
 * offer SMTPUTF8 (offered by default, as smtp-server does), or offer enhanced status codes (not
 * by default, as smtp-server does), or take only a few connections at once.
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { type MailSettings, resolveMailSettings } from "../../src/mail/settings.js";

export interface Received {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
  /** Whether MAIL FROM asked for SMTPUTF8. */
  smtpUtf8: boolean;
}

export interface SmtpFixture {
  port: number;
  url: string;
  received: Received[];
  /** Logins tried: user and password as the server got them. */
  logins: { user: string; pass: string }[];
  /** Connections clients opened so far. */
  readonly connections: number;
  /**
   * MAIL FROM and RCPT TO as clients wrote them, before the server read them (smtp-server gives
   * a domain in its Unicode form, whatever form it came in). Only on connections without TLS.
   */
  envelopeCommands: string[];
  /**
   * Every MAIL FROM, RCPT TO, DATA, RSET, NOOP and QUIT command clients wrote, in upper case as
   * nodemailer writes them (AUTH lines are left out: they carry the password; a message's own
   * lines are not commands, and a line of one that reads exactly DATA would be counted). Only on
   * connections without TLS.
   */
  commands: string[];
  close(): Promise<void>;
}

export async function startSmtp(
  options: {
    auth?: { user: string; pass: string };
    rejectRecipients?: readonly string[];
    /**
     * Drop the connection instead of answering the end of the message data: every message's, or
     * only the one of this number (counted from 1 over all connections).
     */
    dropAfterData?: boolean | number;
    /**
     * Drop the connection as soon as the first bytes of this message's data arrive (counted from
     * 1 over all connections): the client is still sending it, the server never has its end.
     */
    dropDuringData?: number;
    /** Close each connection (FIN, no 421) as soon as it has answered a message. */
    closeWhenIdle?: boolean;
    /**
     * Take no new connection once this many messages were answered, as a server that goes down
     * part-way through a mailing (a connection still open carries on).
     */
    goDownAfter?: number;
    /** Drop the connection when the client tries to log in. */
    dropOnAuth?: boolean;
    /** Answer 421 and close a connection that has carried this many messages, at the next one. */
    closeAfterMessages?: number;
    /** Answer every MAIL FROM 553, as a server refusing the sender's address. */
    refuseSender?: boolean;
    /** Answer the first this many MAIL FROM commands 451 (try again later). */
    deferFirst?: number;
    /** Called with each message once it has arrived, before the server answers it. */
    beforeAnswer?: (message: Received) => void;
    /** Answers a message (after beforeAnswer) only once the promise this gives it has settled. */
    holdAnswer?: (message: Received) => Promise<void> | undefined;
    /** Answer 554 to the data of the messages this says yes to: they are not kept. */
    refuseMessage?: (message: Received) => boolean;
    /**
     * Offer STARTTLS with this key and certificate (PEM), or with smtp-server's own built-in
     * certificate ("built-in"). Without it, STARTTLS is not offered.
     */
    starttls?: { key: string; cert: string } | "built-in";
    /** Do not offer SMTPUTF8 (RFC 6531) in the reply to EHLO. */
    hideSmtpUtf8?: boolean;
    /** Offer ENHANCEDSTATUSCODES (RFC 2034): each reply gives one, `550 5.1.1 no such user …`. */
    enhancedStatusCodes?: boolean;
    /** Take this many connections at once: another is greeted 421 and closed (smtp-server's maxClients). */
    maxClients?: number;
    /** The text of the 535 refusing a login (default: one quoting the password as it came). */
    refusal?: (login: { user: string; pass: string }) => string;
  } = {},
): Promise<SmtpFixture> {
  const received: Received[] = [];
  const logins: { user: string; pass: string }[] = [];
  const pending: Promise<void>[] = [];
  let deferred = 0;
  let dataCommands = 0;
  const socketOf = (session: { remotePort: number }) =>
    [...sockets].find((one) => one.remotePort === session.remotePort);
  const server = new SMTPServer({
    authOptional: options.auth === undefined,
    allowInsecureAuth: true,
    hideSTARTTLS: options.starttls === undefined,
    hideSMTPUTF8: options.hideSmtpUtf8 ?? false,
    hideENHANCEDSTATUSCODES: options.enhancedStatusCodes !== true,
    ...(options.maxClients === undefined ? {} : { maxClients: options.maxClients }),
    ...(typeof options.starttls === "object" ? options.starttls : {}),
    logger: false,
    onAuth(auth, session, callback) {
      const login = { user: auth.username ?? "", pass: auth.password ?? "" };
      logins.push(login);
      if (options.dropOnAuth) {
        socketOf(session)?.destroy();
        return;
      }
      if (auth.username === options.auth?.user && auth.password === options.auth?.pass) {
        callback(null, { user: auth.username });
      } else {
        // Echoes what it got, as a careless server might: the client must redact it.
        callback(
          Object.assign(
            new Error(
              options.refusal?.(login) ?? `Authentication failed for password ${login.pass}`,
            ),
            { responseCode: 535 },
          ),
        );
      }
    },
    onMailFrom(_address, session, callback) {
      if (options.refuseSender) {
        callback(Object.assign(new Error("sender not owned by user"), { responseCode: 553 }));
        return;
      }
      if (deferred < (options.deferFirst ?? 0)) {
        deferred++;
        callback(Object.assign(new Error("try again later"), { responseCode: 451 }));
        return;
      }
      const carried = (session as { carried?: number }).carried ?? 0;
      if (options.closeAfterMessages === undefined || carried < options.closeAfterMessages) {
        callback();
        return;
      }
      // As a server ending a connection it will carry no more on: 421, then it closes.
      callback(Object.assign(new Error("closing this connection"), { responseCode: 421 }));
      const socket = socketOf(session);
      setImmediate(() => socket?.end());
    },
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipients?.includes(address.address.toLowerCase())) {
        callback(
          Object.assign(new Error(`no such user ${address.address}`), { responseCode: 550 }),
        );
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      if (++dataCommands === options.dropDuringData) {
        stream.once("data", () => socketOf(session)?.destroy());
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        const from = session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address;
        const to = session.envelope.rcptTo.map((r) => r.address);
        let refused = false;
        const parsing = simpleParser(raw).then(async (parsed) => {
          const message = { from, to, raw, parsed, smtpUtf8: session.envelope.smtpUtf8 === true };
          refused = options.refuseMessage?.(message) ?? false;
          if (!refused) received.push(message);
          options.beforeAnswer?.(message);
          await options.holdAnswer?.(message);
        });
        pending.push(parsing);
        const drop = options.dropAfterData;
        if (drop === true || (typeof drop === "number" && drop === received.length + 1)) {
          // The message has arrived, the answer never does.
          socketOf(session)?.destroy();
          return;
        }
        parsing.then(() => {
          if (refused) {
            callback(Object.assign(new Error("message refused"), { responseCode: 554 }));
            return;
          }
          const carrying = session as { carried?: number };
          carrying.carried = (carrying.carried ?? 0) + 1;
          callback();
          // The answer is written before the end of the connection: the client sees it idle.
          if (options.closeWhenIdle) socketOf(session)?.end();
          if (options.goDownAfter === received.length) listener().close();
        }, callback);
      });
    },
  });
  // A client that gives up on TLS ends the handshake: the server reports it, nothing to do here.
  server.on("error", () => undefined);
  const sockets = new Set<import("node:net").Socket>();
  let connections = 0;
  const envelopeCommands: string[] = [];
  const commands: string[] = [];
  const listener = () => (server as unknown as { server: import("node:net").Server }).server;
  listener().on("connection", (socket) => {
    connections++;
    socket.on("data", (chunk: Buffer) => {
      const lines = chunk.toString("utf8").split("\r\n");
      envelopeCommands.push(...lines.filter((line) => /^(MAIL FROM|RCPT TO):/i.test(line)));
      commands.push(
        ...lines.filter((line) => /^(MAIL FROM:|RCPT TO:|DATA$|RSET$|NOOP$|QUIT$)/.test(line)),
      );
    });
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = listener().address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    logins,
    envelopeCommands,
    commands,
    get connections() {
      return connections;
    },
    async close() {
      await Promise.allSettled(pending);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The settings that send to `server` from reports@example.com, as LMS_SMTP_URL would give them. */
export function fixtureSettings(server: Pick<SmtpFixture, "url">): Promise<MailSettings> {
  return resolveMailSettings(
    {
      smtpUrl: server.url,
      mailFrom: "reports@example.com",
      smtpPasswordFile: undefined,
      allowInsecureSmtp: false,
      sources: { smtpUrl: "LMS_SMTP_URL", mailFrom: "LMS_MAIL_FROM" } as never,
    },
    {},
  );
}
