/**
 * DuckDB's error messages made fit for one line of output. They run to several lines ("<Kind>
 * Error: what", then hints, a "LINE n:" excerpt or a list of "Possible solutions"); the first line
 * says what happened.
 */

/** DuckDB's first line, without the client's "Failed to prepare statement: "-style prefix. */
export function duckdbFirstLine(message: string): string {
  return (message.split("\n", 1)[0] ?? message)
    .trim()
    .replace(/^Failed to [\w ]+?: (?=\w+ Error:)/, "");
}

/** DuckDB's first line without its error kind: "Could not read enough bytes", not "IO Error: …". */
export function duckdbReason(message: string): string {
  return (message.split("\n", 1)[0] ?? message).replace(/^[\w ]+Error: /, "");
}

/**
 * What DuckDB says after its first line — "Did you mean …?", candidate bindings, the "LINE n:"
 * excerpt and its caret — as lines indented under the message, or "" when it says nothing more.
 * Every line gets the same indent so the caret still points at the right character.
 */
export function duckdbDetails(message: string): string {
  const rest = message
    .split("\n")
    .slice(1)
    .filter((line) => line.trim() !== "");
  return rest.map((line) => `\n  ${line.trimEnd()}`).join("");
}

/**
 * What to do when SQL was refused a file (DuckDB's file access is off for user SQL), as a clause
 * to append; empty for any other error.
 */
export function fileAccessHint(message: string): string {
  return /Permission Error: Cannot access (file|directory)/.test(message)
    ? "; SQL here reads only the database: to let it use files, pass --allow-file-access DIR"
    : "";
}

/**
 * What to do when DuckDB ran out of its memory ceiling (set by LMS_DUCKDB_MEMORY_LIMIT), as a
 * clause to append to the message; empty for any other error.
 */
export function memoryHint(message: string): string {
  return /Out of Memory Error|failed to pin block|could not allocate block|failed to allocate data/i.test(
    message,
  )
    ? "; DuckDB ran out of its memory ceiling: set LMS_DUCKDB_MEMORY_LIMIT higher (e.g. 1GB) and run again"
    : "";
}
