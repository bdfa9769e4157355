/**
 * Where a JSON text goes wrong, as an offset. The parser's message gives a position for some
 * mistakes only: for the commonest ones in a hand-edited file (an unquoted word, a single quote,
 * YAML) it says "Unexpected token" with an excerpt of the text instead, and the excerpt is never
 * shown, as it could hold a secret. The offset is then found by parsing prefixes: once a prefix
 * is wrong, every longer one is too, so the shortest wrong prefix ends at the mistake.
 */

type PrefixState = "fine" | "wrong";

/**
 * Contract: `text` does not parse as JSON; answers the offset of the first character that makes
 * it wrong, or undefined when the text is only cut short (every prefix could still continue).
 */
export function jsonErrorOffset(text: string): number | undefined {
  const stated = statedPosition(parseError(text));
  if (stated !== undefined && stated < text.length) return stated;
  if (prefixState(text) === "fine") return undefined;
  let low = 0;
  let high = text.length;
  // Invariant: the prefix of length `high` is wrong, every prefix up to `low` is fine.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (prefixState(text.slice(0, middle)) === "wrong") high = middle;
    else low = middle;
  }
  return high - 1;
}

function parseError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : "";
  }
}

function statedPosition(message: string | undefined): number | undefined {
  const position = message === undefined ? undefined : /position (\d+)/.exec(message)?.[1];
  return position === undefined ? undefined : Number(position);
}

/**
 * A prefix is fine when it parses, or fails only for want of more text: the parser ran into its
 * end (no position, or the position of the end itself).
 */
function prefixState(prefix: string): PrefixState {
  const message = parseError(prefix);
  if (message === undefined || message.includes("end of JSON input")) return "fine";
  const position = statedPosition(message);
  return position !== undefined && position >= prefix.length ? "fine" : "wrong";
}
