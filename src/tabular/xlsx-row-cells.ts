/**
 * A reconciled row's cells placed in their columns, each with the value exceljs's Cell gave
 * (`cell.value`) and its number format: what lib/doc/row.js (`set model`) and the value classes of
 * lib/doc/cell.js made of the row, without making the Row and its Cells; but for dates before
 * 1900-03-01, which exceljs reads a day early (see xlsx-1900-dates.ts), unless the cell's date
 * came from its ISO text (xlsx-iso-dates.ts).
 */
import type { CellValue } from "exceljs";
import { type CellModel, colCache, type RowModel, ValueType } from "./exceljs-parsers.js";
import { LeapDayCellError, trueSerialDate } from "./xlsx-1900-dates.js";
import { isIsoDated } from "./xlsx-iso-dates.js";

export interface SheetCell {
  /** The address as written (`r`), when it was: links name cells by it. */
  readonly address: string | undefined;
  readonly value: CellValue;
  readonly numFmt: string | undefined;
}

/**
 * `cell.value` for a cell of this model. A formula's value keeps every field the file gave: a
 * saved result of 0, FALSE or "" is the value the sheet shows. (exceljs's FormulaValue keeps only
 * truthy fields, which made such a result read as none, and the formula as never calculated.)
 */
function cellValue(model: CellModel): CellValue {
  switch (model.type) {
    case ValueType.Null:
      return null;
    case ValueType.Hyperlink:
      return { text: model.text, hyperlink: model.hyperlink } as CellValue;
    case ValueType.Formula: {
      const copy: Record<string, unknown> = {};
      for (const key of ["formula", "result", "sharedFormula"] as const) {
        if (model[key] !== undefined) copy[key] = model[key];
      }
      return copy as unknown as CellValue;
    }
    default:
      return model.value as CellValue;
  }
}

/**
 * `value` with a date read from a serial of the 1900 system made its true date. Throws
 * LeapDayCellError for serial 60, which no date is: read as 1900-02-28 or 03-01, it would be
 * imported as a day the sheet does not show (Excel shows 1900-02-29).
 */
function trueDates(value: CellValue, date1904: boolean | undefined, line: number, col: number) {
  const result = (value as { result?: unknown } | null)?.result;
  const date = value instanceof Date ? value : result instanceof Date ? result : undefined;
  if (date === undefined) return value;
  const right = trueSerialDate(date, date1904);
  if (right === "leap-day") throw new LeapDayCellError(`${colCache.n2l(col)}${line}`, line);
  if (right === date) return value;
  return value instanceof Date ? right : ({ ...(value as object), result: right } as CellValue);
}

/**
 * The row's cells by column index (a sparse array). A cell written without a reference is the one
 * after the cell before it; a later cell in the same column replaces an earlier one; a cell with
 * neither value nor style is not made at all. Throws exceljs's own errors where it threw (a
 * reference that is no address), which fail the file as they did, and LeapDayCellError.
 * `date1904`: the workbook's dates count from 1904.
 */
export function placeCells(row: RowModel, date1904: boolean | undefined): SheetCell[] {
  const cells: SheetCell[] = [];
  let previous: number | undefined;
  for (const model of row.cells) {
    if (model.type === ValueType.Merge) continue;
    let col: number;
    if (model.address) {
      const decoded = colCache.decodeAddress(model.address);
      colCache.validateAddress(decoded.address);
      col = decoded.col;
    } else if (previous !== undefined) {
      col = previous + 1;
    } else {
      throw new Error(`row ${row.number} starts with a cell that has no reference`);
    }
    previous = col;
    cells[col - 1] = {
      address: model.address,
      value: isIsoDated(model)
        ? cellValue(model)
        : trueDates(cellValue(model), date1904, row.number, col),
      numFmt: model.style?.numFmt,
    };
  }
  return cells;
}
