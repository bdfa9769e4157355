/**
 * `sql --format csv`'s lines: RFC 4180, with the same formula neutralisation as the exports. How
 * a column's cells are written is chosen once from its type, not found again for every value:
 * numbers and booleans are their digits or words, which never need quotes, and only a text
 * column's values (or a union's text members) are checked for formulas.
 */
import { DuckDBTypeId, type DuckDBValue } from "@duckdb/node-api";
import { cellText } from "./cell-text.js";
import { holdsText, isTextTypeId, neutraliseText } from "./export/formula-injection.js";
import { isNumericType } from "./numeric-types.js";

/** A field, quoted when it holds a quote, a comma or a line break. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** How a column's value (not NULL) becomes its CSV field. */
type CsvCell = (value: DuckDBValue) => string;

function csvCell(type: DuckDBTypeId, neutraliseFormulas: boolean): CsvCell {
  // A number's or boolean's text is what the generic path gives too: no date to write in UTC,
  // nothing to quote. (A TIMESTAMPTZ written as text by print-statement.ts has its own type.)
  if (isNumericType(type) || type === DuckDBTypeId.BOOLEAN) return String;
  if (isTextTypeId(type)) {
    return neutraliseFormulas
      ? (value) => csvField(neutraliseText(cellText(value, true)))
      : (value) => csvField(cellText(value, true));
  }
  // A union prints as its member's text: a text member may be a formula as any text can.
  if (type === DuckDBTypeId.UNION && neutraliseFormulas) {
    return (value) => {
      const text = cellText(value, true);
      return csvField(holdsText(value) ? neutraliseText(text) : text);
    };
  }
  return (value) => csvField(cellText(value, true));
}

/** The header line of columns `names`. */
export function csvHeader(names: readonly string[]): string {
  return `${names.map(csvField).join(",")}\r\n`;
}

/** The line of a row of columns of `types`, NULL as an empty field. */
export function csvLine(
  types: readonly DuckDBTypeId[],
  neutraliseFormulas: boolean,
): (row: readonly DuckDBValue[]) => string {
  const cells = types.map((type) => csvCell(type, neutraliseFormulas));
  return (row) => {
    let line = "";
    for (let c = 0; c < row.length; c++) {
      const value = row[c] as DuckDBValue;
      if (c > 0) line += ",";
      if (value !== null) line += (cells[c] as CsvCell)(value);
    }
    return `${line}\r\n`;
  };
}
