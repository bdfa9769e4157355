/**
 * The forms a secret takes in text it may be echoed in: as given, percent-encoded (a URL), and
 * base64, which SMTP's AUTH PLAIN and AUTH LOGIN send and which a server's refusal may quote back
 * (`535 credentials AHJlcG9ydHMAU210cC1QVy03N3F4 rejected` holds `\0user\0password`).
 */

/** Base64 text shorter than this could match unrelated text (a word is valid base64). */
const MIN_BASE64_CORE = 8;

/**
 * Contract: answers `secret`, its percent-encoding and, for each of the three places its first
 * byte can take in a base64 group, the base64 characters that only its own bytes decide (in the
 * standard and URL-safe alphabets), so that base64 of any text holding the secret contains one of
 * them. What surrounds that core encodes at most two bytes of the secret in part. Cores shorter
 * than {@link MIN_BASE64_CORE} are left out; an empty secret has no forms.
 */
export function secretForms(secret: string): string[] {
  if (secret === "") return [];
  const forms = new Set([secret, encodeURIComponent(secret)]);
  const bytes = Buffer.from(secret, "utf8");
  for (let lead = 0; lead < 3; lead++) {
    const padded = Buffer.concat([Buffer.alloc(lead), bytes]);
    // A group holding a byte before the secret is not its own; nor is a group it does not fill.
    const core = padded
      .toString("base64")
      .slice(lead === 0 ? 0 : 4, Math.floor(padded.length / 3) * 4);
    if (core.length < MIN_BASE64_CORE) continue;
    forms.add(core);
    forms.add(core.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...forms];
}
