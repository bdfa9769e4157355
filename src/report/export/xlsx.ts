/**
 * Excel export with exceljs's streaming WorkbookWriter (useStyles: number formats and a bold header
 * need it): a sheet per query with a bold frozen header row of labels a person reads
 * (`columnLabel`), an autofilter over the data, widths from the header and the first rows, real
 * number/date/boolean cells, overdue rows highlighted, a page setup that prints one page wide
 * (`xlsx-layout.ts`), a sheet continued on a new one past Excel's row limit, and an "About" sheet
 * that also maps each header back to its SQL column name.
 *
 * Two measured facts shape it (exceljs 4.4, this machine):
 * - Each cell gets its own merged style object, and exceljs hashes a style it has not seen by
 *   identity: giving every cell of a column the same style object avoids that and roughly doubles
 *   the speed.
 * - The writer never waits for the zip stream: rows go into an unbounded buffer in front of
 *   deflate (about 400 MB at 1M rows × 8 columns). The writer therefore waits, between chunks,
 *   until that buffer is below a high-water mark, and uses zlib level 1, which is about twice as
 *   fast as the default for files about a third larger.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import type { DuckDBDataChunk, DuckDBResult } from "@duckdb/node-api";
import ExcelJS from "exceljs";
import { xmlSafe } from "../html/escape.js";
import { checkSignal } from "../interruption.js";
import { columnLabel } from "../present/column-label.js";
import { neutraliseText } from "./formula-injection.js";
import {
  type CellValue,
  type ColumnWriter,
  columnWidth,
  columnWriter,
  EXCEL_CELL_CHARS,
  settleDateFormat,
} from "./xlsx-cells.js";
import { overdueHighlight, pageSetup } from "./xlsx-layout.js";
import { xmlCell } from "./xml-text.js";

/** Excel's limit: rows per sheet, header included. */
export const EXCEL_MAX_ROWS = 1_048_576;

/** How a workbook is written. */
export interface XlsxOptions {
  neutraliseFormulas: boolean;
  /** Rows per sheet, header included, before continuing on a new sheet (tests lower it). */
  maxRowsPerSheet?: number;
  /** zlib level of the zip (1 = fastest; see the module comment). */
  compressionLevel?: number;
}

/** A line of the About sheet. */
export interface AboutLine {
  label: string;
  value: CellValue;
}

/** How a result is written: its column labels, and how a failure while reading it is shown. */
export interface ResultOptions {
  /** Labels the query gives its columns (see `columnLabel`). */
  labels?: ReadonlyMap<string, string>;
  /** Applied to a failure while fetching rows (the query failing as it runs) before it is thrown. */
  queryError?: (error: unknown) => unknown;
  /** Stops the writing between chunks of rows once it fires (an "interrupted" error). */
  signal?: AbortSignal;
  /**
   * Called with the rows read once the result gave its last one: throws when the query failed
   * part-way, so that a sheet cut short is never written as whole (see streamQuery).
   */
  atEnd?: (rows: number) => Promise<void>;
}

/** How the columns of one result are written, on each of its sheets. */
interface SheetLayout {
  /** SQL column names. */
  headers: string[];
  labels: string[];
  writers: ColumnWriter[];
  widths: number[];
  /** The first chunk's rows, converted while the formats were settled. */
  firstRows: CellValue[][];
  /** Whether the About sheet's table has its headers already. */
  listed: boolean;
}

/** A header of a data sheet as the About sheet lists it. */
interface HeaderEntry {
  sheet: string;
  label: string;
  name: string;
}

const HIGH_WATER_BYTES = 16 * 1024 * 1024;
const STALL_MS = 120_000;
const BOLD = { font: { bold: true } };
/**
 * An About value's cell: wrapped within its column, so a report's description (a paragraph of
 * a thousand characters for the shipped weekly report) reads in its column and prints whole; on
 * one line it ran far past the sheet's three columns, and a printed page cut it at the third.
 */
const ABOUT_TEXT = { alignment: { wrapText: true, vertical: "top" as const } };
const ABOUT_LABEL = { ...BOLD, alignment: { vertical: "top" as const } };
const INVALID_SHEET_CHARS = /[[\]:*?/\\]/g;

/**
 * Bytes waiting in front of deflate for `sheet`. Reads exceljs internals (the sheet's StreamBuf
 * and the stream it pipes into); if they change shape this answers 0 and the export only loses
 * its memory bound, never its output.
 */
function pendingBytes(sheet: unknown): number {
  const stream = (sheet as { stream?: { pipes?: unknown[] } }).stream;
  const target = stream?.pipes?.[0] as { _writableState?: { length?: number } } | undefined;
  return target?._writableState?.length ?? 0;
}

/** One workbook being written to `path`. Call commit() or abort() exactly once. */
export class XlsxWorkbook {
  readonly #file: WriteStream;
  readonly #book: ExcelJS.stream.xlsx.WorkbookWriter;
  readonly #maxDataRows: number;
  readonly #neutralise: boolean;
  readonly #sheetNames = new Set<string>();
  readonly #headers: HeaderEntry[] = [];
  #failure: Error | undefined;
  /** Text cells cut to Excel's limit (see xlsx-cells.ts). */
  #cut = 0;

  constructor(path: string, options: XlsxOptions) {
    this.#maxDataRows = Math.max(1, (options.maxRowsPerSheet ?? EXCEL_MAX_ROWS) - 1);
    this.#neutralise = options.neutraliseFormulas;
    this.#file = createWriteStream(path);
    this.#file.on("error", (error) => {
      this.#failure ??= error;
    });
    this.#book = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: this.#file,
      useStyles: true,
      useSharedStrings: false,
      zip: { zlib: { level: options.compressionLevel ?? 1 } },
    });
    const zip = (this.#book as unknown as { zip?: NodeJS.EventEmitter }).zip;
    zip?.on("error", (error: Error) => {
      this.#failure ??= error;
    });
  }

  #check(): void {
    if (this.#failure) throw this.#failure;
  }

  /** A unique sheet name (Excel: at most 31 characters, none of []:*?/\, case-insensitive). */
  #sheetName(wanted: string): string {
    const base = wanted.replace(INVALID_SHEET_CHARS, "_").slice(0, 31) || "Sheet";
    let name = base;
    for (
      let n = 2;
      [...this.#sheetNames].some((s) => s.toLowerCase() === name.toLowerCase());
      n++
    ) {
      const suffix = ` (${n})`;
      name = `${base.slice(0, 31 - suffix.length)}${suffix}`;
    }
    this.#sheetNames.add(name);
    return name;
  }

  async #drain(sheet: ExcelJS.Worksheet): Promise<void> {
    let last = pendingBytes(sheet);
    let since = Date.now();
    while (last > HIGH_WATER_BYTES) {
      this.#check();
      await new Promise<void>((resolve) => setImmediate(resolve));
      const now = pendingBytes(sheet);
      if (now < last) since = Date.now();
      else if (Date.now() - since > STALL_MS) throw new Error("the Excel zip stream stopped");
      last = now;
    }
    this.#check();
  }

  /**
   * Writes `result` to a sheet named `name` (continued on "name (2)" ... past the row limit).
   * Reads the result to its end; answers the number of data rows.
   */
  async addResult(
    name: string,
    result: DuckDBResult,
    options: ResultOptions = {},
  ): Promise<number> {
    const queryError = options.queryError ?? ((error: unknown) => error);
    const next = async () => {
      checkSignal(options.signal, `sheet ${name}`);
      const fetched = await result.fetchChunk().catch((error: unknown) => {
        throw queryError(error);
      });
      return fetched && fetched.rowCount > 0 ? fetched : null;
    };
    let chunk = await next();
    const layout = this.#layout(result, chunk, options.labels);
    const { writers, firstRows } = layout;
    const styles = writers.map((w) => w.style);
    const cellStyles = writers.map((w) => w.cellStyle);
    const lastColumn = writers.length;

    let sheetRows = 0;
    let total = 0;
    let current = this.#openSheet(name, layout);
    let rows = firstRows;
    while (chunk) {
      for (const values of rows) {
        if (sheetRows === this.#maxDataRows) {
          this.#closeSheet(current, layout.headers, sheetRows);
          current = this.#openSheet(name, layout);
          sheetRows = 0;
        }
        const row = current.addRow(values);
        for (let c = 0; c < lastColumn; c++) {
          row.getCell(c + 1).style = (cellStyles[c]?.(values[c] ?? null) ?? styles[c]) as object;
        }
        row.commit();
        sheetRows++;
        total++;
      }
      await this.#drain(current);
      chunk = await next();
      rows = chunk ? this.#rows(chunk, writers) : [];
    }
    await options.atEnd?.(total);
    this.#closeSheet(current, layout.headers, sheetRows);
    return total;
  }

  /**
   * The columns of `result`: SQL names, labels, writers (formats settled on the first chunk's
   * rows, which are converted here), and widths from the labels and those rows.
   */
  #layout(
    result: DuckDBResult,
    chunk: DuckDBDataChunk | null,
    given: ReadonlyMap<string, string> | undefined,
  ): SheetLayout {
    const headers = result.deduplicatedColumnNames();
    const labels = headers.map((header) => xmlSafe(columnLabel(header, given)));
    const initial = headers.map((header, i) =>
      columnWriter(header, result.columnType(i), {
        neutraliseFormulas: this.#neutralise,
        onCut: () => {
          this.#cut += 1;
        },
      }),
    );
    const firstRows = chunk ? this.#rows(chunk, initial) : [];
    const column = (c: number) => firstRows.map((row) => row[c] ?? null);
    const writers = initial.map((writer, c) => settleDateFormat(writer, column(c)));
    const widths = labels.map((label, c) =>
      columnWidth(label, writers[c] as ColumnWriter, column(c)),
    );
    return { headers, labels, writers, widths, firstRows, listed: false };
  }

  /** A new sheet with the header row; the first sheet of a result lists its headers for About. */
  #openSheet(name: string, layout: SheetLayout): ExcelJS.Worksheet {
    const sheetName = this.#sheetName(name);
    const sheet = this.#book.addWorksheet(sheetName, {
      views: [{ state: "frozen", ySplit: 1 }],
      pageSetup: pageSetup(),
    });
    if (!layout.listed) {
      layout.listed = true;
      layout.labels.forEach((label, c) => {
        this.#headers.push({ sheet: sheetName, label, name: layout.headers[c] ?? "" });
      });
    }
    sheet.columns = layout.widths.map((width) => ({ width }));
    const header = sheet.addRow(layout.labels);
    for (let c = 1; c <= layout.labels.length; c++) header.getCell(c).style = BOLD;
    header.commit();
    return sheet;
  }

  #closeSheet(sheet: ExcelJS.Worksheet, headers: readonly string[], dataRows: number): void {
    sheet.autoFilter = {
      from: { row: 1, column: 1 },
      to: { row: dataRows + 1, column: headers.length },
    };
    const highlight = overdueHighlight(headers, dataRows);
    if (highlight) sheet.addConditionalFormatting(highlight);
    sheet.commit();
  }

  #rows(chunk: DuckDBDataChunk, writers: readonly ColumnWriter[]) {
    const count = chunk.rowCount;
    const rows: CellValue[][] = Array.from({ length: count }, () => new Array(writers.length));
    writers.forEach((writer, c) => {
      const vector = chunk.getColumnVector(c);
      for (let r = 0; r < count; r++) {
        const value = vector.getItem(r);
        (rows[r] as CellValue[])[c] = value === null ? null : xmlCell(writer.convert(value));
      }
    });
    return rows;
  }

  /**
   * Adds the About sheet: a two-column list of labels and values, then a table of every data
   * sheet's headers with their SQL column names (the names CSV and Parquet files use).
   */
  addAbout(lines: readonly AboutLine[]): void {
    const sheet = this.#book.addWorksheet(this.#sheetName("About"), { pageSetup: pageSetup() });
    sheet.columns = [{ width: 24 }, { width: 60 }, { width: 28 }];
    const bold = (values: CellValue[]) => {
      const row = sheet.addRow(values);
      values.forEach((_, c) => {
        row.getCell(c + 1).style = BOLD;
      });
      row.commit();
    };
    bold(["About", ""]);
    const dateStyle = { numFmt: "yyyy-mm-dd hh:mm:ss", alignment: { horizontal: "left" as const } };
    const cut: AboutLine[] =
      this.#cut === 0
        ? []
        : [
            {
              label: "Text cut to fit",
              value: `${this.#cut} cells held more than Excel's ${EXCEL_CELL_CHARS.toLocaleString("en")} characters: they end with "…" here; the CSV and Parquet exports hold them whole`,
            },
          ];
    for (const line of [...lines, ...cut]) {
      const value =
        typeof line.value === "string" && this.#neutralise
          ? neutraliseText(xmlSafe(line.value))
          : xmlCell(line.value);
      const row = sheet.addRow([line.label, value]);
      row.getCell(1).style = ABOUT_LABEL;
      if (value instanceof Date) row.getCell(2).style = dateStyle;
      else if (typeof value === "string") row.getCell(2).style = ABOUT_TEXT;
      row.commit();
    }
    if (this.#headers.length > 0) {
      sheet.addRow([]).commit();
      bold(["Sheet", "Column", "SQL name"]);
      for (const entry of this.#headers) {
        const text = (value: string) => (this.#neutralise ? neutraliseText(value) : value);
        sheet.addRow([entry.sheet, text(entry.label), xmlSafe(entry.name)]).commit();
      }
    }
    sheet.commit();
  }

  /** Finishes the file; resolves once it is flushed and closed. */
  async commit(): Promise<void> {
    this.#check();
    const closed = new Promise<void>((resolve, reject) => {
      this.#file.once("close", resolve);
      this.#file.once("error", reject);
    });
    await this.#book.commit();
    await closed;
    this.#check();
  }

  /** Stops writing and closes the file (the caller removes it). */
  async abort(): Promise<void> {
    const zip = (this.#book as unknown as { zip?: { abort?: () => void } }).zip;
    try {
      zip?.abort?.();
    } catch {
      // Already failed: closing the file below is what matters.
    }
    if (this.#file.closed) return;
    await new Promise<void>((resolve) => {
      this.#file.once("close", () => resolve());
      this.#file.destroy();
    });
  }
}
