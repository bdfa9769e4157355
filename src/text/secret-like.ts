/**
 * A wrong value quoted back in an error, unless it may be a secret typed into the wrong setting
 * (the API key pasted as the base URL, a password given as the concurrency). The error reaches a
 * terminal, a log file and a cron mail, so such a value is shown by its first characters only.
 *
 * The rule: a word (a run without blanks, quotes or commas) may be a secret when one of its
 * parts between `/ \ ? # & = : @` is 16 characters or more, holds both a letter and a digit, is
 * neither a lower-case dotted name (a host such as `lms2.example.com`) nor a file name ending in
 * an extension (`roster-2026.csv`), and reads as generated rather than named: a piece of it
 * between `- _ . + ~` is longer than 12 characters (`9f8A7b6C5d4E3f2G1h0` of a key, a hex token),
 * or has a digit between letters without being hexadecimal (`Tr0ub4dor`). Names joined by
 * dashes (`lms-mock-server-1`, `weekly-compliance-2026`), UUIDs (a tenant's id in a path),
 * addresses, paths, numbers and words stay quoted whole.
 */

/** Parts shorter than this are shown: too short for a key or a generated password. */
const MIN_SECRET_LENGTH = 16;

/** The characters of a masked word that are still shown, enough to recognise what was typed. */
const SHOWN_PREFIX = 4;

/** What a masked value's message adds, once. */
export const SHOWN_IN_PART = "shown in part: it may be a secret";

const WORD = /[^\s"',[\]{}]+/g;

/** Pieces of a name between its joiners are words or numbers; a longer piece is generated. */
const MAX_NAME_PIECE = 12;

/** Whether one part of a word reads like a key or a password rather than a name. */
function secretLikePart(part: string): boolean {
  return (
    part.length >= MIN_SECRET_LENGTH &&
    /[A-Za-z]/.test(part) &&
    /\d/.test(part) &&
    !/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/.test(part) &&
    !/\.[A-Za-z]{1,5}$/.test(part) &&
    part.split(/[-_.+~]/).some(generatedPiece)
  );
}

/** A piece too long for a word, or a word with a digit inside that is no hexadecimal number. */
function generatedPiece(piece: string): boolean {
  if (piece.length > MAX_NAME_PIECE) return true;
  return /[A-Za-z]\d+[A-Za-z]/.test(piece) && !/^[0-9A-Fa-f]+$/.test(piece);
}

/**
 * Contract: `text` with every word that may hold a secret cut at its first such part, four
 * characters of that part kept and `…` put for the rest of the word (a key holding `/` would
 * otherwise go on after the cut); `masked` says whether any was. All else is kept as it is.
 */
export function maskSecretLike(text: string): { text: string; masked: boolean } {
  let masked = false;
  const out = text.replace(WORD, (word) => {
    const part = word.split(/[/\\?#&=:@]/).find(secretLikePart);
    if (part === undefined) return word;
    masked = true;
    const at = word.indexOf(part);
    return `${word.slice(0, at + SHOWN_PREFIX)}…`;
  });
  return { text: out, masked };
}

/**
 * `text` as it is when no word of it may be a secret; otherwise with such words cut, followed by
 * `(shown in part: it may be a secret)`.
 */
export function shownUnlessSecret(text: string): string {
  const { text: shown, masked } = maskSecretLike(text);
  return masked ? `${shown} (${SHOWN_IN_PART})` : shown;
}

/** `text` in double quotes (JSON string syntax), as {@link shownUnlessSecret} shows it. */
export function quotedUnlessSecret(text: string): string {
  return shownUnlessSecret(JSON.stringify(text));
}
