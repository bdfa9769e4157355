/** CSV (and TSV) files: delimiter sniffed, first record the header, empty cells null. */
import { type CsvRecord, parseCsv } from "./csv-parse.js";
import { sniffDelimiter } from "./csv-sniff.js";
import { decodeUtf8 } from "./decode-text.js";
import { TabularError, type TabularRow, type TabularSource } from "./types.js";

const SHOWN: Readonly<Record<string, string>> = { "\t": "tab", ",": '","', ";": '";"', "|": '"|"' };

function isBlank(fields: readonly string[]): boolean {
  return fields.every((field) => field.trim() === "");
}

/** The error for a last record that looks cut short (see openCsv). */
function cutShort(record: CsvRecord, width: number): TabularError {
  const { length } = record.fields;
  return new TabularError(
    `only ${length} of the header's ${width} fields, and the file ends there without a line break: it looks cut short (still being written, or copied only in part); take the file once it is whole, or complete the line`,
    { line: record.line },
  );
}

/**
 * Excel's first line `sep=;`, written for Excel to open the file with that delimiter, names it and
 * is no header.
 */
const SEP_LINE = /^sep=([^\r\n])(?=\r?\n|$)/i;

/**
 * Opens CSV bytes. Lines with only empty or blank fields (blank lines, `,,,` left by spreadsheets)
 * are skipped; a record with fewer fields than the header is padded with nulls (some writers leave
 * trailing empty cells out), except the file's last when no line break ends it: that is how a
 * file still being written, or a copy cut short, ends, and its last person would be imported with
 * the missing fields empty (and a replace import would drop everyone after it). One with more
 * fields keeps them all, for the caller to report.
 */
export function openCsv(bytes: Uint8Array, file: string): TabularSource {
  const decoded = decodeUtf8(bytes, file, '"CSV UTF-8"');
  const hint = SEP_LINE.exec(decoded);
  // Cut to its line break, the hint reads as a blank first line: the lines keep their numbers.
  const text = hint ? decoded.slice(hint[0].length) : decoded;
  const delimiter = hint?.[1] ?? sniffDelimiter(text);
  const records = parseCsv(text, delimiter);
  let first: IteratorResult<CsvRecord>;
  try {
    do first = records.next();
    while (!first.done && isBlank(first.value.fields));
  } catch (error) {
    if (!(error instanceof TabularError)) throw error;
    throw new TabularError(`${file} line ${error.line}: ${error.message}`, { cause: error });
  }
  if (first.done) throw new TabularError(`${file} is empty: it has no header and no rows`);
  const columns = first.value.fields;
  function* rows(): Generator<TabularRow> {
    for (const record of records) {
      if (isBlank(record.fields)) continue;
      const values: (string | null)[] = record.fields.map((field) => (field === "" ? null : field));
      if (!record.ended && values.length < columns.length) throw cutShort(record, columns.length);
      while (values.length < columns.length) values.push(null);
      yield { line: record.line, values };
    }
  }
  return {
    format: "csv",
    columns,
    headerLine: first.value.line,
    unit: "line",
    detail: `delimiter ${SHOWN[delimiter] ?? delimiter}`,
    delimiter,
    rows,
  };
}
