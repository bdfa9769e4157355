/**
 * A composed message's To and Cc headers without the recipients a server cannot be given
 * (smtp-utf8.ts: a local part beyond ASCII, to a server that does not offer SMTPUTF8).
 *
 * Why left out rather than encoded: such an address has no valid form in a message without
 * SMTPUTF8. RFC 2047's encoded words are not allowed in an address (RFC 2047 section 5), and
 * UTF-8 in a header (RFC 6532) only travels with SMTPUTF8, which this server did not offer. And
 * a header naming an address the message was not sent to misleads the others: they would take
 * that person to have it, and a reply to all would go to an address their server may mangle.
 * The address is named as not delivered instead (with the command that sends it again).
 *
 * The message is composed once, before the server is known, so the headers are rewritten in its
 * bytes: only the header section, only To and Cc, whose addresses are plain (address.ts: no
 * display name, no comma, no quotes), as compose.ts writes them.
 */
import { domainToASCII } from "node:url";

/** The end of the header section: the first empty line. */
const HEADER_END = "\r\n\r\n";
/** The headers rewritten: those naming recipients. */
const RECIPIENT_HEADER = /^(to|cc):/i;
/** Where a long header is folded (RFC 5322's recommended line length). */
const LINE = 78;

/** `address` and the form a header gives it in (nodemailer writes a domain in its ASCII form). */
function forms(address: string): string[] {
  const at = address.lastIndexOf("@");
  return [address, `${address.slice(0, at)}@${domainToASCII(address.slice(at + 1))}`];
}

/** `name: items` folded after a comma where a line would grow past {@link LINE}. */
function header(name: string, items: readonly string[]): string {
  const lines = [`${name}:`];
  items.forEach((item, i) => {
    const text = ` ${item}${i < items.length - 1 ? "," : ""}`;
    const last = lines.length - 1;
    if (i > 0 && (lines[last] as string).length + text.length > LINE) lines.push(text);
    else lines[last] += text;
  });
  return lines.join("\r\n");
}

/** One header (its folded lines joined) without `left`; undefined when it names no one else. */
function without(field: string, left: ReadonlySet<string>): string | undefined {
  const colon = field.indexOf(":");
  const items = field
    .slice(colon + 1)
    .replace(/\r\n[ \t]/g, " ")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  const kept = items.filter((item) => !left.has(item));
  if (kept.length === items.length) return field;
  return kept.length === 0 ? undefined : header(field.slice(0, colon), kept);
}

/**
 * `raw` with the addresses of `left` taken out of its To and Cc headers (a header left naming no
 * one dropped); `raw` itself when there are none to take out. The body is not touched.
 */
export function withoutRecipients(raw: Buffer, left: readonly string[]): Buffer {
  if (left.length === 0) return raw;
  // Found in the bytes: only the header section is read as text.
  const end = raw.indexOf(HEADER_END);
  if (end < 0) return raw;
  const gone = new Set(left.flatMap(forms));
  // A header's lines: its first, and the folded ones starting with white space.
  const fields = raw
    .subarray(0, end)
    .toString("utf8")
    .split(/\r\n(?![ \t])/);
  const kept = fields.flatMap((field) => {
    if (!RECIPIENT_HEADER.test(field)) return [field];
    const rewritten = without(field, gone);
    return rewritten === undefined ? [] : [rewritten];
  });
  const head = Buffer.from(kept.join("\r\n"), "utf8");
  return Buffer.concat([head, raw.subarray(end)]);
}
