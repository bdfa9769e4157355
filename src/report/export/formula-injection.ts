/**
 * Formula-injection neutralisation (OWASP "CSV injection"): a text cell that starts with
 * `=`, `+`, `-`, `@`, tab, carriage return or line feed may be run as a formula by a spreadsheet
 * that opens the file, so it gets a leading apostrophe, which spreadsheets show as text. Only text
 * cells are touched; numbers, dates and booleans are written as they are, and a negative number
 * stays a number. Exporters apply it by default; `neutraliseFormulas: false` turns it off.
 */

/** The first characters that make a text cell dangerous. */
export const FORMULA_TRIGGERS: readonly string[] = ["=", "+", "-", "@", "\t", "\r", "\n"];

const TRIGGER_CODES = new Set(FORMULA_TRIGGERS.map((c) => c.charCodeAt(0)));

/** The text as written to a cell: prefixed with `'` when it starts with a trigger. */
export function neutraliseText(text: string): string {
  return text.length > 0 && TRIGGER_CODES.has(text.charCodeAt(0)) ? `'${text}` : text;
}

/**
 * The same rule as a DuckDB expression over the text expression `column` (an already quoted
 * identifier), for exports written by COPY. ascii() is the first character's code point (0 for an
 * empty text), which avoids building a substring per row.
 */
export function neutraliseSql(column: string): string {
  const codes = [...TRIGGER_CODES].join(", ");
  return `CASE WHEN ascii(${column}) IN (${codes}) THEN '''' || ${column} ELSE ${column} END`;
}
