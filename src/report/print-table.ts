/**
 * `sql --format table`: rows aligned in columns, for people. A column is as wide as its widest
 * value, but holding every row to measure them held the whole result (1.2 GB for two million
 * rows). Rows are measured and printed a block of {@link TABLE_BLOCK_ROWS} at a time: a result of
 * up to that many rows is one block, printed once it is read whole, as always. Past it, the
 * columns keep the widths of the blocks above, and a block that needs a column wider prints the
 * header again, with the wider columns (and room to spare), above its rows. Widths only grow, so
 * every row under a header lines up with it.
 */
import type { Writable } from "node:stream";
import type { DuckDBResult, DuckDBTypeId } from "@duckdb/node-api";
import { shownControls } from "../text/shown-controls.js";
import { cellText } from "./cell-text.js";
import { isNumericType } from "./numeric-types.js";
import { BatchedOutput, forEachRow } from "./print-output.js";
import { cutToColumns, terminalWidth } from "./terminal-columns.js";

/** How many rows the table measures and prints at a time. */
export const TABLE_BLOCK_ROWS = 1000;

/** Past this many terminal columns a cell is cut, with an ellipsis. */
const MAX_TABLE_CELL = 60;

/** What {@link printTable} reports as it goes. */
export interface TableEvents {
  /** Called before the first block is printed: from then on, a failure leaves a cut table. */
  readonly onOutput: () => void;
  /** Called with the row count once every row is read (see PrintOptions.atEnd). */
  readonly atEnd: (rows: number) => Promise<void>;
}

/** The rows held for the next block, and the widths of the header printed last. */
class TableBlocks {
  private held: string[][] = [];
  private widths: number[] = [];
  started = false;

  constructor(
    private readonly names: readonly string[],
    private readonly types: readonly DuckDBTypeId[],
    private readonly batch: BatchedOutput,
  ) {}

  /** Holds a row's cells; answers whether the block is full, to be printed. */
  hold(cells: string[]): boolean {
    this.held.push(cells);
    return this.held.length >= TABLE_BLOCK_ROWS;
  }

  /** Prints the rows held, under a header when they need wider columns than the last one. */
  async print(): Promise<void> {
    const rows = this.held;
    this.held = [];
    // Each cell measured once, for the columns' widths and for its own padding.
    const measured = rows.map((row) => row.map((cell) => terminalWidth(cell)));
    const named = this.names.map((name) => terminalWidth(name));
    const wider = named.map((width, c) =>
      measured.reduce((widest, cells) => Math.max(widest, cells[c] ?? 0), width),
    );
    const lines: string[] = [];
    if (!this.started || wider.some((width, c) => width > (this.widths[c] ?? 0))) {
      this.widths = this.started ? this.widened(wider) : wider;
      const rule = this.widths.map((w) => "-".repeat(w)).join("-+-");
      lines.push(this.line(this.names, named, true), rule);
    }
    this.started = true;
    for (const text of lines) await this.batch.add(`${text}\n`);
    for (const [r, row] of rows.entries()) {
      const written = this.batch.add(`${this.line(row, measured[r] ?? [], false)}\n`);
      if (written) await written;
    }
  }

  /**
   * The widths for a block past the first that needs some columns wider: each such column with
   * room to grow by a quarter more (at least 2), as far as a cell can be wide. Widened to fit
   * only, a column whose values lengthen slowly (ids gaining a digit, texts a letter every few
   * thousand rows) printed the header again every few blocks, ten times over two million rows.
   */
  private widened(needed: readonly number[]): number[] {
    return needed.map((width, c) => {
      const now = this.widths[c] ?? 0;
      if (width <= now) return now;
      const widest = Math.max(MAX_TABLE_CELL, terminalWidth(this.names[c] ?? ""));
      return Math.min(widest, width + Math.max(2, Math.ceil(width / 4)));
    });
  }

  /**
   * A row (or the header) padded to the widths in terminal columns, numbers to the right;
   * `columns` holds the terminal columns each value takes.
   */
  private line(values: readonly string[], columns: readonly number[], header: boolean): string {
    return values
      .map((v, c) => {
        const pad = " ".repeat(Math.max(0, (this.widths[c] ?? 0) - (columns[c] ?? 0)));
        const right = !header && isNumericType(this.types[c] as DuckDBTypeId) && v !== "NULL";
        return right ? pad + v : v + pad;
      })
      .join(" | ")
      .trimEnd();
  }
}

/**
 * Prints `result` as a table to `out`; answers the row count. Until the first block is printed
 * a failure prints nothing; after it, the rows read before the failure are printed, as CSV's are.
 */
export async function printTable(
  result: DuckDBResult,
  out: Writable,
  columns: { readonly names: readonly string[]; readonly types: readonly DuckDBTypeId[] },
  events: TableEvents,
): Promise<number> {
  const batch = new BatchedOutput(out);
  // A column named in SQL can hold a control character as well as a value can.
  const names = columns.names.map((name) => shownControls(name));
  const table = new TableBlocks(names, columns.types, batch);
  const printBlock = () => {
    if (!table.started) events.onOutput();
    return table.print();
  };
  let count: number;
  try {
    count = await forEachRow(result, out, (row) => {
      const cells = row.map((value) => (value === null ? "NULL" : clip(cellText(value))));
      return table.hold(cells) ? printBlock() : undefined;
    });
  } catch (error) {
    if (table.started) await printBlock();
    await batch.flush();
    throw error;
  }
  if (table.started) await printBlock();
  await batch.flush();
  await events.atEnd(count);
  if (!table.started) await printBlock();
  batch.add(`(${count} row${count === 1 ? "" : "s"})\n`);
  await batch.flush();
  return count;
}

function clip(value: string): string {
  const oneLine = shownControls(value);
  return cutToColumns(oneLine, MAX_TABLE_CELL);
}
