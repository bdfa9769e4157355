/**
 * A word of a command line as a POSIX shell reads it back: commands shown to be pasted (a mail
 * resend, a scheduled run's log line) must run as they were given, a SQL statement of several
 * words included.
 */

/** `text` as one word of a POSIX shell: as it is when plain, else in single quotes. */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9@%_+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A file's path as one shell word that no command line takes for an option: a relative path
 * beginning with `-` (`-dash.duckdb`) is given as `./-dash.duckdb`.
 */
export function pathWord(path: string): string {
  return shellWord(path.startsWith("-") ? `./${path}` : path);
}
