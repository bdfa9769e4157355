/** The text of one exceljs cell value, as a person reading the sheet would type it back. */
import type { CellValue } from "exceljs";

function pad(n: number): string {
  return String(n).padStart(2, "0");
}

/** exceljs reads dates as UTC wall time: a date alone is `YYYY-MM-DD`, else `YYYY-MM-DDTHH:MM:SS`. */
function dateText(date: Date): string {
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const h = date.getUTCHours();
  const m = date.getUTCMinutes();
  const s = date.getUTCSeconds();
  return h === 0 && m === 0 && s === 0 ? day : `${day}T${pad(h)}:${pad(m)}:${pad(s)}`;
}

/** Text of a cell value, null when empty. A formula gives its cached result, never the formula. */
export function cellText(value: CellValue): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value === "" ? null : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return dateText(value);
  if ("richText" in value) return cellText(value.richText.map((part) => part.text).join(""));
  if ("hyperlink" in value) return cellText(value.text as CellValue);
  if ("formula" in value || "sharedFormula" in value) {
    return cellText((value as { result?: CellValue }).result ?? null);
  }
  if ("error" in value) return String(value.error);
  return null;
}
