/**
 * A roster without a name column or without an e-mail column. It imports (an id list is a
 * roster), but every report then shows those people nameless or without an address, and the
 * run's only warning, about people missing from the roster, reads as if the others had names: a
 * header the aliases do not know (an export's `Full Name`) is the usual cause, so the import says
 * which headers it looked for.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { quoteIdent } from "../load/ddl.js";
import {
  USER_HEADER_ALIASES,
  USER_HEADER_FALLBACKS,
  type UserBaseColumn,
} from "../load/user-header-aliases.js";
import { USER_TABLE } from "../load/user-table.js";
import type { RosterMode } from "./swap.js";

/** The person fields a report shows, each the base columns that provide it. */
const FIELDS: readonly { what: string; columns: readonly UserBaseColumn[] }[] = [
  { what: "name", columns: ["firstname", "lastname"] },
  { what: "e-mail", columns: ["email"] },
];

/** A field the roster has no column for, and the header keys that would have been its column. */
export interface MissingPersonField {
  readonly what: string;
  readonly columns: readonly string[];
  readonly headers: readonly string[];
}

/** Whether `user` holds a value in any of `columns` (a merge's earlier rows may have them). */
async function anyValue(
  connection: DuckDBConnection,
  columns: readonly string[],
): Promise<boolean> {
  const filled = columns.map((c) => `${quoteIdent(c)} IS NOT NULL`).join(" OR ");
  const reader = await connection.runAndReadAll(
    `SELECT EXISTS (SELECT 1 FROM ${quoteIdent(USER_TABLE)} WHERE ${filled})`,
  );
  return reader.getRows()[0]?.[0] === true;
}

/**
 * The fields the imported file has no column for and, after a merge, no person of the roster has
 * a value in either (a partial update sheet leaves the stored names where they are).
 */
export async function missingPersonFields(
  connection: DuckDBConnection,
  fileColumns: readonly string[],
  mode: RosterMode,
): Promise<MissingPersonField[]> {
  const missing: MissingPersonField[] = [];
  for (const { what, columns } of FIELDS) {
    if (columns.some((column) => fileColumns.includes(column))) continue;
    if (mode === "merge" && (await anyValue(connection, columns))) continue;
    missing.push({
      what,
      columns,
      headers: columns.flatMap((column) => [
        ...USER_HEADER_ALIASES[column],
        ...(USER_HEADER_FALLBACKS[column] ?? []),
      ]),
    });
  }
  return missing;
}

/** The warning's one line per missing field. */
export function missingPersonFieldWarning(file: string, field: MissingPersonField): string {
  const columns = field.columns.join(" or ");
  return `roster import: ${file} has no ${field.what} column (no header meaning ${columns}; looked for ${field.headers.join(", ")}, case, spaces and punctuation aside), so reports show every person's ${field.what} empty; rename the column that holds it and import again`;
}
