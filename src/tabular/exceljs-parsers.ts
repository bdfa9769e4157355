/**
 * The parsers exceljs's whole-workbook loader (node_modules/exceljs/lib/xlsx/xlsx.js) runs on a
 * workbook's parts, typed for what the XLSX reader uses of them. The reader drives them itself,
 * part by part and row by row, so a cell reads exactly as it did when the whole workbook was
 * loaded, without the workbook's model of a Cell object per cell. exceljs declares no types for
 * these modules; the shapes below are those of exceljs 4.4's sources named beside each, which is
 * why package.json pins exceljs exactly: a release may reshape them without a major version.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** An XML element as the SAX parser gives it. */
export interface XmlNode {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
}

/** exceljs's parser of one element and its content (lib/xlsx/xform/base-xform.js). */
export interface Xform<M> {
  model: M;
  parseOpen(node: XmlNode): boolean;
  parseText(text: string): void;
  /** False once the element the parser was opened on is closed. */
  parseClose(name: string): boolean;
}

/** lib/xlsx/xform/core/relationships-xform.js */
export type Relationship = { readonly Id: string; readonly Target: string };

/** lib/xlsx/xform/book/workbook-xform.js (the sheets in the workbook's order) */
export interface WorkbookModel {
  readonly sheets?: readonly {
    readonly name: string;
    readonly rId: string;
    /** `hidden` or `veryHidden` for a sheet the workbook does not show; absent when shown. */
    readonly state?: string;
  }[];
  readonly properties?: { readonly date1904?: boolean };
}

/** A cell's style: its number format is all the reader looks at. */
export interface CellStyle {
  readonly numFmt?: string;
}

/** lib/xlsx/xform/style/styles-xform.js */
export interface Styles extends Xform<unknown> {
  getStyleModel(id: number): CellStyle | null;
  /** Set once the part is parsed: the workbook's own number formats by id. */
  index?: { numFmt: (string | undefined)[] };
}

/** lib/xlsx/xform/strings/shared-strings-xform.js */
export interface SharedStrings extends Xform<unknown> {
  getString(index: number): unknown;
}

/** A cell as lib/xlsx/xform/sheet/cell-xform.js leaves it once reconciled. */
export interface CellModel {
  readonly address?: string;
  readonly type: number;
  readonly value?: unknown;
  readonly formula?: string;
  readonly sharedFormula?: string;
  readonly result?: unknown;
  readonly text?: unknown;
  readonly hyperlink?: string;
  readonly style?: CellStyle;
}

/** lib/xlsx/xform/sheet/row-xform.js */
export interface RowModel {
  readonly number: number;
  readonly cells: readonly CellModel[];
  readonly style?: CellStyle;
  /** `hidden="1"` on the row: hidden by hand or by a filter. */
  readonly hidden?: boolean;
  /** `ht`, the row's height in points; absent for the sheet's default height. */
  readonly height?: number;
}

/** What row-xform's reconcile reads (the options xlsx.js gives every worksheet). */
export interface ReconcileOptions {
  readonly styles: Styles | undefined;
  readonly sharedStrings: SharedStrings | undefined;
  readonly date1904: boolean | undefined;
  /** Cell address to link target: such a cell becomes a hyperlink of its value. */
  readonly hyperlinkMap: Readonly<Record<string, string>>;
  /** Shared formulas' masters by their `si`, filled as the rows are reconciled. */
  readonly formulae: Record<string, string>;
}

export interface RowParser extends Xform<RowModel> {
  reconcile(model: RowModel, options: ReconcileOptions): void;
}

/** lib/xlsx/xform/sheet/col-xform.js */
export interface ColModel {
  readonly min: number;
  readonly max: number;
  readonly style?: CellStyle;
  /** `hidden="1"`: the sheet does not show these columns. */
  readonly hidden?: boolean;
  /** `width`, in characters of the default font; absent for the sheet's default width. */
  readonly width?: number;
}

export interface ColParser extends Xform<ColModel> {
  reconcile(model: ColModel, options: { styles: Styles | undefined }): void;
}

/** lib/doc/enums.js: the cell types the reader tells apart. */
export const ValueType = {
  Null: 0,
  Merge: 1,
  String: 3,
  Date: 4,
  Hyperlink: 5,
  Formula: 6,
} as const;

type Constructor<T> = new () => T;

export const RelationshipsXform: Constructor<
  Xform<Relationship[]>
> = require("exceljs/lib/xlsx/xform/core/relationships-xform.js");
export const WorkbookXform: Constructor<
  Xform<WorkbookModel | undefined>
> = require("exceljs/lib/xlsx/xform/book/workbook-xform.js");
export const StylesXform: Constructor<Styles> = require("exceljs/lib/xlsx/xform/style/styles-xform.js");
export const SharedStringsXform: Constructor<SharedStrings> = require("exceljs/lib/xlsx/xform/strings/shared-strings-xform.js");
export const RowXform: Constructor<RowParser> = require("exceljs/lib/xlsx/xform/sheet/row-xform.js");
export const ColXform: Constructor<ColParser> = require("exceljs/lib/xlsx/xform/sheet/col-xform.js");

/** lib/utils/col-cache.js: cell addresses as exceljs's Row reads them. */
export const colCache: {
  decodeAddress(address: string): { address: string; col: number; row: number };
  validateAddress(address: string): true;
  /** A column's letters by its number (1 is A). */
  n2l(col: number): string;
} = require("exceljs/lib/utils/col-cache.js");

/** lib/doc/range.js: a merged range as exceljs decodes its reference. */
export interface CellRange {
  readonly top: number;
  readonly left: number;
  readonly bottom: number;
  readonly right: number;
  intersects(other: CellRange): boolean;
}

export const Range: new (ref: string) => CellRange = require("exceljs/lib/doc/range.js");
