/**
 * Half a surrogate pair in JSON text. A portal that cuts UTF-16 text to a length may cut inside an
 * emoji and send `"cut \ud83d"`; JSON.stringify writes such half a character as that escape (a
 * whole pair it writes as the character itself). DuckDB's JSON refuses the escape, which failed
 * the whole extract on one such field, and PostgreSQL's jsonb refuses it too. A text column gets
 * U+FFFD for it (the UTF-8 encoding of the batch), so JSON text gets the same.
 */

/** An escaped backslash (kept, so that the text `\\ud83d` stays text), or half a pair's escape. */
const ESCAPE = /\\\\|\\ud[89a-f][0-9a-f]{2}/g;

/** `json` (as JSON.stringify writes it) with each half surrogate pair's escape as U+FFFD. */
export function withoutLoneSurrogates(json: string): string {
  if (!json.includes("\\ud")) return json;
  return json.replace(ESCAPE, (found) => (found === "\\\\" ? found : "\uFFFD"));
}
