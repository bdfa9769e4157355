/**
 * One complete message as the bytes handed to the server: headers, the HTML body with its plain
 * alternative, inline images, and the report files attached from disk exactly as written.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { domainToASCII } from "node:url";
import MailComposer from "nodemailer/lib/mail-composer";
import type { MailBody } from "./body.js";

export interface OutgoingMail {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  body: MailBody;
  /** Paths of the files to attach, attached under their own names. */
  files: string[];
  date: Date;
}

/**
 * The type of each text file a report writes, by extension: UTF-8 (DuckDB writes no other CSV;
 * the HTML report is written so), said in the part's header. Without a charset a mail client
 * previewing the file guesses one, and a CSV without a byte-order mark reads "ZoÃ©". nodemailer
 * keeps the parameters of a type given and adds the file's name; other files' types it detects.
 */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  ".csv": "text/csv; charset=utf-8",
  ".html": "text/html; charset=utf-8",
};

/** The message bytes and its Message-ID (a fresh one each time: each message is new). */
export async function composeMail(mail: OutgoingMail): Promise<{ raw: Buffer; messageId: string }> {
  // A Message-ID is ASCII (RFC 5322): a sender's domain of another script in its IDNA form.
  const domain = domainToASCII(mail.from.slice(mail.from.lastIndexOf("@") + 1));
  const messageId = `<${Date.now().toString(36)}.${randomBytes(8).toString("hex")}@${domain}>`;
  const attachments = [];
  for (const file of mail.files) {
    // Read here, not by nodemailer: the bytes sent are the bytes on disk, nothing else is read.
    const contentType = TEXT_TYPES[extname(file).toLowerCase()];
    const content = await readFile(file);
    attachments.push({
      filename: basename(file),
      content,
      ...(contentType ? { contentType } : {}),
    });
  }
  for (const image of mail.body.inline) attachments.push({ ...image });
  const composer = new MailComposer({
    from: mail.from,
    to: mail.to,
    ...(mail.cc.length > 0 ? { cc: mail.cc } : {}),
    subject: mail.subject,
    date: mail.date,
    messageId,
    text: mail.body.text,
    html: mail.body.html,
    attachments,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return { raw: await composer.compile().build(), messageId };
}
