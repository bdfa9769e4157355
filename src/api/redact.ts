/**
 * Keeps the API key and every token out of text that leaves the client (error messages, log
 * lines). Server messages are scrubbed too: a portal may echo the request, token included.
 */

import { secretForms } from "../log/secret-forms.js";

const PLACEHOLDER = "[redacted]";

/**
 * Secret-looking `name: value` / `"name":"value"` pairs, for secrets the client has not seen (a
 * server could echo a token issued to someone else, or a key under another spelling).
 */
const SECRET_FIELD =
  /((?:"|')?(?:api[_-]?key|access[_-]?token|token|authorization|password)(?:"|')?\s*[:=]\s*)(?:"[^"]*"?|'[^']*'?|(?:bearer\s+)?[^\s,;}"']+)/gi;

/** The longest text a server-provided message may add to one of our messages. */
const MAX_SERVER_TEXT = 200;

/**
 * A growing set of secret strings and the scrubbing they imply.
 *
 * Contract: after `add(s)`, `scrub(text)` never returns a string containing `s`, nor any of the
 * percent-encoded and base64 forms the log redacts (secret-forms.ts): a portal or a proxy in
 * front of it may quote the Authorization header or the token request encoded. Forms are replaced
 * longest first so a secret that contains another is removed whole.
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  #ordered: string[] = [];

  add(secret: string): void {
    if (secret === "") return;
    const before = this.#secrets.size;
    for (const form of secretForms(secret)) this.#secrets.add(form);
    if (this.#secrets.size === before) return;
    this.#ordered = [...this.#secrets].sort((a, b) => b.length - a.length);
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.#ordered) out = out.split(secret).join(PLACEHOLDER);
    return out.replace(SECRET_FIELD, `$1${PLACEHOLDER}`);
  }

  /**
   * Server-provided text made fit for a one-line message: scrubbed, on one line, bounded.
   * Scrubbing happens before truncation so a cut cannot leave half a secret behind.
   */
  serverText(text: string): string {
    const line = this.scrub(text).replace(/\s+/g, " ").trim();
    return line.length > MAX_SERVER_TEXT ? `${line.slice(0, MAX_SERVER_TEXT)}…` : line;
  }
}
