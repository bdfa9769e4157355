/**
 * The error of a roster whose header has no user_id column. The header must be the file's first
 * row, and exports often start with a title (one cell, or one merged across the columns) and a
 * blank row above the real header: the error says so, and where a user_id header was seen, rather
 * than list the title as the columns found. The header row is never guessed and read silently:
 * a wrong guess would import a title as a person, or leave one out.
 */
import { quotedCell } from "../tabular/quoted-cell.js";
import type { TabularSource } from "../tabular/types.js";
import { isUserIdHeader } from "./aliases.js";
import { RosterError } from "./errors.js";

/** How many rows under the header are searched for a user_id header. */
const ROWS_SEARCHED = 10;

/** The line of the first of the rows under the header that holds a user_id header, if one does. */
function userIdHeaderLine(source: TabularSource): number | undefined {
  let searched = 0;
  try {
    for (const row of source.rows()) {
      if (row.values.some((value) => value !== null && isUserIdHeader(value))) return row.line;
      if (++searched >= ROWS_SEARCHED) return undefined;
    }
  } catch {
    // Text the format cannot parse ends the search; the file is refused for its header anyway.
  }
  return undefined;
}

/**
 * The title a header row looks like: its one value, when every non-empty cell holds the same
 * text (one cell, or a merged cell, which shows its value in each cell it covers).
 */
function titleOf(columns: readonly string[]): string | undefined {
  const values = new Set(columns.map((raw) => raw.trim()).filter((raw) => raw !== ""));
  return values.size === 1 ? [...values][0] : undefined;
}

/**
 * The RosterError of `source`, whose header has no user_id column; its rows are read for it.
 * `otherSheet`: a sheet of the same workbook whose header has one, the sheet meant.
 */
export function noUserIdColumn(
  source: TabularSource,
  file: string,
  otherSheet?: string,
): RosterError {
  const { unit, columns } = source;
  const listed = columns.map((raw) => quotedCell(raw)).join(", ");
  if (otherSheet !== undefined) {
    const sheet = JSON.stringify(otherSheet);
    return new RosterError(
      `${file} has no user_id column (found ${listed}); sheet ${sheet} has one: import it with --sheet ${sheet}`,
    );
  }
  const title = titleOf(columns);
  const found = userIdHeaderLine(source);
  const named = `named "user_id" (or "User ID", "id") holding each person's portal user id`;
  if (title === undefined && found === undefined) {
    return new RosterError(`${file} has no user_id column (found ${listed}); add one ${named}`);
  }
  const first = `the header must be the first ${unit}`;
  const what =
    title === undefined
      ? `${file} has no user_id column (found ${listed}): ${first}`
      : `${file} has no user_id column: ${first}, and ${unit} ${source.headerLine ?? 1} looks like a title (${quotedCell(title)})`;
  const fix =
    found === undefined
      ? `delete the ${unit}s above the header, or add a column ${named}`
      : `the header seems to be on ${unit} ${found}: delete the ${unit}s above it and import again`;
  return new RosterError(`${what}; ${fix}`);
}
