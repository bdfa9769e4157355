/**
 * Which sheet of a workbook a command read, for its messages. A workbook often opens on a sheet
 * of instructions or a summary; read as the table, its header is "missing" every column, and a
 * message naming only the file leaves the person looking at the sheet that is right. So a
 * workbook's problems name the sheet read, and another sheet with the header wanted is pointed to.
 */
import { openTabularFile } from "./open-tabular.js";
import type { TabularSource } from "./types.js";

/** How messages name the table read from `file`: `changes.xlsx, sheet "Instructions"`, or `file`. */
export function tableName(file: string, source: TabularSource): string {
  return source.format === "xlsx" ? `${file}, ${source.detail}` : file;
}

/**
 * The first other sheet (not hidden) of the workbook at `path` whose header `fits`, if any. Each
 * is read whole, as the sheet read was: this is only done once a header has been found wanting.
 */
export async function otherSheetWith(
  path: string,
  file: string,
  source: TabularSource,
  fits: (columns: readonly string[]) => boolean,
): Promise<string | undefined> {
  for (const sheet of source.otherSheets ?? []) {
    try {
      const other = await openTabularFile(path, { file, sheet });
      if (fits(other.source.columns)) return sheet;
    } catch {
      // An empty sheet, or one that cannot be read, holds no table to point to.
    }
  }
  return undefined;
}
