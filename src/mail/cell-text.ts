/**
 * A result value as text for a person reading a mail: dates as dates, rates as percentages,
 * nothing for NULL. The files keep the exact values; the mail is for reading at a glance.
 */

const PERCENT_COLUMN = /_(rate|share|pct)$/;

/** The text of `value`, a value of column `column` as DuckDB's getRowsJS gives it. */
export function cellText(value: unknown, column: string): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return "";
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z")
      ? iso.slice(0, 10)
      : `${iso.slice(0, 16).replace("T", " ")} UTC`;
  }
  if (typeof value === "number") {
    if (PERCENT_COLUMN.test(column) && Number.isFinite(value))
      return `${(value * 100).toFixed(1)}%`;
    return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(2)));
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return value;
  return JSON.stringify(value, (_key, inner) =>
    typeof inner === "bigint" ? inner.toString() : inner,
  );
}
