/**
 * Which delimiter a CSV file uses, from its first records: exports use `,` or, where the decimal
 * separator is a comma, `;`; tab and `|` also occur. The right one splits the header into more
 * than one field and every following record into as many.
 */
import { type CsvRecord, parseCsv } from "./csv-parse.js";

export const DELIMITERS = [",", ";", "\t", "|"] as const;

const SAMPLE_CHARS = 64 * 1024;
const SAMPLE_RECORDS = 50;

function sampleRecords(sample: string, delimiter: string, truncated: boolean): CsvRecord[] {
  const records: CsvRecord[] = [];
  try {
    for (const record of parseCsv(sample, delimiter)) {
      records.push(record);
      if (records.length > SAMPLE_RECORDS) break;
    }
  } catch {
    // A quoted field cut by the end of the sample: judge on the records before it.
  }
  // The last record of a cut sample may be cut too.
  if (truncated && records.length > 1) records.pop();
  return records;
}

/**
 * The delimiter among {@link DELIMITERS} whose records agree most with the header's field count,
 * then that splits the header into the most fields; `,` when none splits the header.
 */
export function sniffDelimiter(text: string): string {
  const truncated = text.length > SAMPLE_CHARS;
  const sample = truncated ? text.slice(0, SAMPLE_CHARS) : text;
  let best: { delimiter: string; agreeing: number; width: number } | undefined;
  for (const delimiter of DELIMITERS) {
    const [header, ...rest] = sampleRecords(sample, delimiter, truncated);
    const width = header?.fields.length ?? 0;
    if (width < 2) continue;
    const agreeing = rest.filter((record) => record.fields.length === width).length;
    if (!best || agreeing > best.agreeing || (agreeing === best.agreeing && width > best.width)) {
      best = { delimiter, agreeing, width };
    }
  }
  return best?.delimiter ?? ",";
}
