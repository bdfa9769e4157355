/**
 * What a caught value says, for a log field or a message: anything may be thrown in JavaScript,
 * and a DuckDB or driver error often runs on over several lines of context a one-line message
 * must not carry.
 */

/** The message of `error`, or the value itself as text when it is no Error. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The first line of errorText: what went wrong, without the lines of context below it. */
export function errorFirstLine(error: unknown): string {
  return errorText(error).split("\n", 1)[0] ?? "";
}
