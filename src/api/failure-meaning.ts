/**
 * What a `{status:false}` envelope amounts to, as the HTTP status it stands for.
 *
 * The spec declares a `{code, message}` failure body and leaves open both the HTTP statuses and
 * the codes. Portals that answer every failure with HTTP 200 do so with a code that repeats an
 * HTTP status, with a code of their own, or with a message alone. So the code is used when it
 * reads as an HTTP status, and the wording decides otherwise; wording about the token wins over
 * any code, because "Token has expired" with code 500 is still cured by a new token.
 */

/** The HTTP status a failure stands for, and whether it says the token is no longer accepted. */
export interface FailureMeaning {
  /** 400 to 599, or undefined when neither the code nor the wording tells. */
  readonly status: number | undefined;
  readonly tokenRejected: boolean;
}

/**
 * Token refusals: "Invalid token", "token expired", "Token has expired", "Unauthorized",
 * "jeton expiré", "session expired", "not authenticated". Matched on words, not on a whole
 * sentence, because every portal words it differently.
 */
const TOKEN_WORDS = [
  /\b(?:access[ _-]?)?(?:token|jeton)\b.*\b(?:expir|invalid|unknown|revoked|missing|inconnu|absent|not valid|no longer)/i,
  /\b(?:invalid|expired|unknown|revoked|missing|bad|wrong)\s+(?:access[ _-]?|auth[ _-]?)?(?:token|jeton)\b/i,
  /\bunauthori[sz]ed\b|\bnon authentifi|\bnot authenticated\b|\bauthentication (?:failed|required)\b/i,
  /\bsession\b.*\bexpir/i,
];

/** Wording of the other statuses a client acts on; checked only when no usable code came. */
const STATUS_WORDS: readonly (readonly [number, RegExp])[] = [
  [403, /\bforbidden\b|\bpermission\b|\baccess denied\b|\bnot allowed\b|\binterdit\b/i],
  [404, /\bnot found\b|\bno such\b|\bdoes not exist\b|\bintrouvable\b|\bintrouvé/i],
  [429, /\btoo many requests\b|\brate[ -]?limit/i],
  [
    503,
    /\b(?:temporarily )?unavailable\b|\btry again\b|\bmaintenance\b|\boverloaded\b|\btoo busy\b/i,
  ],
  [500, /\binternal (?:server )?error\b/i],
];

/** The API key refused on /token: "invalid api key", "unknown API key", "clé d'API invalide". */
const KEY_WORDS =
  /\b(?:api[ _-]?key|apikey|cl[ée] d'api)\b.*\b(?:invalid|unknown|wrong|revoked|expir|inconnu)|\b(?:invalid|unknown|wrong|revoked|bad)\s+(?:api[ _-]?key|apikey)\b/i;

/** Whether a failure of the token request says the API key itself is refused. */
export function mentionsKeyRefusal(message: string): boolean {
  return KEY_WORDS.test(message);
}

/** Whether a failure message says the token expired or is not (or no longer) accepted. */
export function mentionsTokenRefusal(message: string): boolean {
  return TOKEN_WORDS.some((pattern) => pattern.test(message));
}

/** Reads the `code` and `message` of a `{status:false}` envelope. */
export function failureMeaning(code: number | undefined, message: string): FailureMeaning {
  // An explicit 403 is about permission even when worded "Unauthorized"; it gets a fresh token
  // once anyway, which also cures a token problem.
  if (code === 403) return { status: 403, tokenRejected: false };
  if (mentionsTokenRefusal(message) || code === 401) return { status: 401, tokenRejected: true };
  if (code !== undefined && code >= 400 && code <= 599)
    return { status: code, tokenRejected: false };
  for (const [status, pattern] of STATUS_WORDS) {
    if (pattern.test(message)) return { status, tokenRejected: false };
  }
  return { status: undefined, tokenRejected: false };
}
