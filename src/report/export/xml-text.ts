/**
 * Text as an xlsx part can hold it. XML 1.0 has no place for U+FFFE and U+FFFF (and exceljs,
 * which leaves out the control characters XML refuses, writes these as they are): one of them in
 * a name made the sheet's XML ill-formed, and Excel offered to repair the workbook, dropping the
 * sheet's cells. They are written as U+FFFD, the character that says one was replaced, so the
 * cell still shows that something stood there (the CSV and Parquet files keep them).
 */
const NOT_IN_XML = /[\uFFFE\uFFFF]/g;

/** `text` with the characters XML cannot hold replaced by U+FFFD. */
export function xmlText(text: string): string {
  return text.replace(NOT_IN_XML, "\uFFFD");
}

/** A cell's value as `xmlText` leaves it; anything but text is as it was. */
export function xmlCell<T>(value: T): T | string {
  return typeof value === "string" ? xmlText(value) : value;
}
