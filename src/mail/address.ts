/**
 * E-mail addresses as this tool accepts them: a plain `local@domain`, no display name, no
 * comments, no spaces. Strict on purpose: an address also names a folder of per-recipient files
 * and goes into an SMTP envelope, so anything unusual is refused rather than interpreted.
 * Internationalised addresses (RFC 6531: `jürgen.groß@example.com`, `王@例子.中国`) are addresses
 * too: a manager's address in a roster is whatever the mail system gave them. Beyond ASCII only
 * letters, combining marks and digits are taken, so no space, control, invisible or
 * direction-changing character gets into an envelope or a folder name.
 */
import { Buffer } from "node:buffer";
import { domainToASCII, domainToUnicode } from "node:url";
import { commaEntries } from "../config/comma-entries.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { quotedUnlessSecret } from "../text/secret-like.js";
import { trimmedSql } from "../text/white-space.js";

/** RFC 5322 atext, and the letters, marks and digits of any script (RFC 6531's UTF-8 in it). */
const LOCAL = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~.-]+$/u;

const ASCII_DOMAIN =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** A label of an internationalised domain name as written (its U-label). */
const UNICODE_LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]*[\p{L}\p{M}\p{N}])?$/u;

/**
 * Whether `domain` is a host name of two labels or more: ASCII letters, digits and hyphens, or
 * labels of any script whose IDNA form (punycode, as the envelope may carry it) is one.
 */
function isDomain(domain: string): boolean {
  if (ASCII_DOMAIN.test(domain)) return true;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => UNICODE_LABEL.test(label))) return false;
  return ASCII_DOMAIN.test(domainToASCII(domain));
}

/** Whether `text` is a plain address `local@domain.tld` (at most 254 bytes in UTF-8). */
export function isMailAddress(text: string): boolean {
  if (Buffer.byteLength(text) > 254) return false;
  const at = text.lastIndexOf("@");
  const local = text.slice(0, at);
  if (at < 1 || !LOCAL.test(local) || !isDomain(text.slice(at + 1))) return false;
  // A local part with a slash or starting with a dot could name another folder. One that ends
  // with a dot or has two in a row is no dot-atom (RFC 5322): an SMTP server refuses it in
  // RCPT TO, so it would only ever fail to send. (Quoted local parts are not taken at all.)
  return (
    !local.includes("/") && !local.startsWith(".") && !local.endsWith(".") && !local.includes("..")
  );
}

/**
 * One form of an address for comparing and grouping, the one key every part of mail uses: trimmed,
 * in Unicode's composed form (NFC), lower case, its domain in its Unicode form (unicodeDomain). Made here only, in TypeScript only: DuckDB's
 * lower() and toLowerCase() differ on some 57 characters ("İ" is "i" to one, "i̇" to the other),
 * and a roster typed on a Mac may give "ü" as "u" and a combining diaeresis, which neither
 * lower-casing merges with "ü". The split reads each address as written (trimmed, in SQL) and keys
 * it here. NFC again after lower-casing, since a lower-case letter may decompose
 * ("İ" → "i" and a combining dot): the key of a key is itself, so a share's folder is recognised.
 * trim() removes ASCII white space (tab, LF, VT, FF, CR, space), the byte-order mark and every
 * Unicode space and line separator; {@link spelledAddressSql} removes the same in DuckDB
 * (src/text/white-space.ts).
 */
export function normaliseAddress(text: string): string {
  return folded(unicodeDomain(folded(text.trim())));
}

/** `text` in NFC and lower case (NFC again after, see normaliseAddress). */
function folded(text: string): string {
  return text.normalize("NFC").toLowerCase().normalize("NFC");
}

/**
 * `address` with a domain written in its ASCII form (IDNA, `xn--bcher-kva.de`, as a mail system
 * may export it) in its Unicode form (`bücher.de`): one mailbox, whichever form a roster cell
 * gives, so one manager's people are not split between two messages. A domain that is no valid
 * IDNA is left as written.
 */
function unicodeDomain(address: string): string {
  const at = address.lastIndexOf("@");
  const domain = address.slice(at + 1);
  if (at < 0 || !/(^|\.)xn--/i.test(domain)) return address;
  const unicode = domainToUnicode(domain);
  return unicode === "" ? address : `${address.slice(0, at + 1)}${unicode}`;
}

/**
 * Whether `text` is an address's key as versions before the domain's Unicode form gave it: as
 * {@link normaliseAddress} gives it but for a domain with an ASCII-form label (`xn--`), kept as
 * written (`chef@xn--bcher-kva.de`, now `chef@bücher.de`). A share folder of that name is an
 * earlier run's (src/mail/stale-shares.ts).
 */
export function isEarlierAddressKey(text: string): boolean {
  return folded(text.trim()) === text && normaliseAddress(text) !== text;
}

/**
 * The VARCHAR SQL `expression` as an address is written: only the white space trim() removes taken
 * off, for {@link normaliseAddress} to key in TypeScript.
 */
export function spelledAddressSql(expression: string): string {
  return trimmedSql(expression);
}

/**
 * The addresses of a comma-separated list (or a list of such lists), normalised and without
 * repeats. Contract: a bad-input naming `source` and the first bad address; an empty list is an
 * error too.
 */
export function parseAddressList(values: string | readonly string[], source: string): string[] {
  const parts = addressItems(values, source);
  for (const part of parts) {
    if (!isMailAddress(part)) throw notAnAddress(source, part);
  }
  return [...new Set(parts)];
}

/**
 * The refusal of `text` given by `source` as a recipient: quoted, unless it may be a secret (a
 * password pasted into the wrong setting), then cut (secret-like.ts).
 */
export function notAnAddress(source: string, text: string): LmsExportError {
  return new LmsExportError(
    "bad-input",
    `${source}: ${quotedUnlessSecret(text)} is not an e-mail address; give plain addresses such as compliance@example.com, separated by commas`,
  );
}

/**
 * The items of a comma-separated list (or a list of such lists), normalised. Contract: a
 * bad-input naming `source` when none is given, and when one is empty among others (`a@x.io,,b@x.io`
 * or `a@x.io,`: an address deleted or not pasted, which left out would go unnoticed).
 */
export function addressItems(values: string | readonly string[], source: string): string[] {
  const fix = "give plain addresses such as compliance@example.com, separated by commas";
  const parts = commaEntries(values, source, fix).map(normaliseAddress);
  if (parts.length === 0) {
    throw new LmsExportError(
      "bad-input",
      `${source} names no address: give one or more, e.g. a@example.com,b@example.com`,
    );
  }
  return parts;
}
