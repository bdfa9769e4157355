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
