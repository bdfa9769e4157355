/**
 * Blanks a final `;` (with only blanks and comments after it) so the text can be wrapped in
 * `COPY (...)` or a sub-query; line numbers stay the file's. Trailing comments are kept: the
 * wrappers close on a new line.
 *
 * The text is scanned as DuckDB's scanner reads it, not line by line: a `;` inside a string
 * (`'a; --b'`) is no end, and a `--` comment ends at a carriage return as well as a line feed.
 * Read by lines, `SELECT 1;\n-- x\rFROM t` took its last line for a comment, blanked the first
 * statement's `;`, and the two statements passed as one sub-query; and `'a; --b'` lost its `;`.
 * Where the scan is unsure (an unterminated string or comment), nothing is blanked: the wrapped
 * text then fails to parse, which refuses, never changes, what was written.
 */
export function statementText(sql: string): string {
  const at = finalSemicolon(sql);
  return at === undefined ? sql : `${sql.slice(0, at)} ${sql.slice(at + 1)}`;
}

/** Where the statement-ending `;` is that only blanks and comments follow, if there is one. */
function finalSemicolon(sql: string): number | undefined {
  let last: number | undefined;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] ?? "";
    if (c === ";") {
      last = i++;
    } else if (/\s/.test(c)) {
      i++;
    } else if (sql.startsWith("--", i)) {
      i = lineCommentEnd(sql, i);
    } else if (sql.startsWith("/*", i)) {
      i = blockCommentEnd(sql, i);
    } else {
      // Anything else after a `;` is more text: that `;` ends no final statement.
      last = undefined;
      i = tokenEnd(sql, i);
    }
  }
  return last;
}

/** After a `--` comment: DuckDB ends one at a line feed or a carriage return. */
function lineCommentEnd(sql: string, from: number): number {
  const end = sql.slice(from).search(/[\n\r]/);
  return end < 0 ? sql.length : from + end;
}

/** After a `/* *\/` comment, which nests in DuckDB as in PostgreSQL; the end when unterminated. */
function blockCommentEnd(sql: string, from: number): number {
  let depth = 0;
  let i = from;
  while (i < sql.length) {
    if (sql.startsWith("/*", i)) {
      depth++;
      i += 2;
    } else if (sql.startsWith("*/", i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else {
      i++;
    }
  }
  return sql.length;
}

const WORD_CHAR = /[A-Za-z0-9_]/;
const DOLLAR_TAG = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

/** After the token at `from`: a string, a quoted name, a dollar-quoted string or one character. */
function tokenEnd(sql: string, from: number): number {
  const c = sql[from] ?? "";
  const afterWord = from > 0 && WORD_CHAR.test(sql[from - 1] ?? "");
  if (c === "'") return quotedEnd(sql, from, "'", false);
  if (c === '"') return quotedEnd(sql, from, '"', false);
  if ((c === "E" || c === "e") && sql[from + 1] === "'" && !afterWord) {
    return quotedEnd(sql, from + 1, "'", true);
  }
  if (c === "$" && !afterWord) {
    const tag = DOLLAR_TAG.exec(sql.slice(from))?.[0];
    if (tag !== undefined) {
      const close = sql.indexOf(tag, from + tag.length);
      return close < 0 ? sql.length : close + tag.length;
    }
  }
  return from + 1;
}

/** After a quoted token opened at `from`: a doubled quote is one, and `\` escapes in E'' text. */
function quotedEnd(sql: string, from: number, quote: string, backslash: boolean): number {
  let i = from + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslash && c === "\\") {
      i += 2;
    } else if (c === quote) {
      if (sql[i + 1] !== quote) return i + 1;
      i += 2;
    } else {
      i++;
    }
  }
  return sql.length;
}
