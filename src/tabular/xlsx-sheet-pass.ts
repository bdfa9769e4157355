/**
 * One SAX pass over a worksheet part: each row parsed and reconciled by exceljs's own row parser
 * (cell types, shared strings, styles, dates, formulas' results, shared formulas) and handed on
 * at once, then dropped; and what the sheet says besides its rows that changes them: merged
 * ranges and links, written after the rows, and the columns' styles, which merged cells missing
 * from the part take.
 */
import {
  type ColModel,
  ColXform,
  type ReconcileOptions,
  type RowModel,
  type RowParser,
  RowXform,
  type XmlNode,
} from "./exceljs-parsers.js";
import { EmptyResults } from "./xlsx-empty-results.js";
import { ImpliedRefs } from "./xlsx-implied-refs.js";
import { IsoDateCells } from "./xlsx-iso-dates.js";
import { ownRowStrings } from "./xlsx-own-strings.js";
import { type Part, parsePart, type XmlHandler } from "./xlsx-package.js";

/** A `<hyperlink>` of the sheet: a cell's link when it has a relationship Id (`r:id`). */
export interface SheetLink {
  readonly address: string | undefined;
  readonly rId: string | undefined;
}

/** What a worksheet part says besides its rows, for a second pass over them. */
export interface SheetTail {
  /** Merged ranges as written (`A1:C1`). */
  readonly merges: readonly string[];
  readonly links: readonly SheetLink[];
  readonly cols: readonly ColModel[];
}

type Section = "sheetData" | "cols" | "mergeCells" | "hyperlinks" | "other";

/**
 * Reconciles `row` with exceljs's row parser. exceljs looks every cell's address up in the links'
 * map, links or none; each address is a string V8 has not seen as a key, so each lookup interns
 * it: a quarter of the reading's CPU time, and every address of the sheet kept in V8's string
 * table (100 MB at 300,000 rows). Without links the cells are reconciled with no address, which
 * changes nothing else, but for a shared formula's master, whose address its other cells take.
 */
function reconcileRow(parser: RowParser, row: RowModel, options: ReconcileOptions): void {
  if (Object.keys(options.hyperlinkMap).length > 0) {
    parser.reconcile(row, options);
    return;
  }
  const cells = row.cells as unknown as { address?: string; shareType?: string }[];
  const addresses = cells.map((cell) => cell.address);
  for (const cell of cells) if (cell.shareType === undefined) cell.address = undefined;
  parser.reconcile(row, options);
  cells.forEach((cell, i) => {
    cell.address = addresses[i];
  });
}

const SECTIONS: ReadonlySet<string> = new Set(["sheetData", "cols", "mergeCells", "hyperlinks"]);

/**
 * The phonetic reading a Japanese spreadsheet keeps beside a text (`<rPh><t>トウキョウ</t></rPh>`
 * after `<t>東京</t>`). exceljs's cell parser appends any `<t>` of an inline string to its
 * value, the reading too (`東京トウキョウ`), so these elements are not handed to it: the text is
 * what the cell shows. (In shared strings exceljs leaves the reading out itself.)
 */
const PHONETIC: ReadonlySet<string> = new Set(["rPh", "phoneticPr"]);

/** Routes the worksheet's sections; a row's events go to exceljs's row parser. */
class SheetHandler implements XmlHandler {
  readonly merges: string[] = [];
  readonly links: SheetLink[] = [];
  readonly cols: ColModel[] = [];
  finished = false;
  #depth = 0;
  #section: Section = "other";
  #inRow = false;
  /** Elements open inside a phonetic reading (`<rPh>`, `<phoneticPr>`) of an inline string. */
  #phonetic = 0;
  readonly #rowParser = new RowXform();
  readonly #colParser = new ColXform();
  readonly #emptyResults = new EmptyResults();
  readonly #isoDates = new IsoDateCells();
  readonly #refs = new ImpliedRefs();

  constructor(
    private readonly options: ReconcileOptions,
    private readonly onRow: (row: RowModel) => void,
  ) {}

  open(given: XmlNode): void {
    this.#depth++;
    const node =
      this.#inRow && this.#depth === 4 && given.name === "c" ? this.#refs.cell(given) : given;
    if (this.#inRow && (this.#phonetic > 0 || PHONETIC.has(node.name))) {
      this.#phonetic++;
    } else if (this.#inRow) {
      this.#rowParser.parseOpen(node);
      this.#emptyResults.opened(node.name);
      this.#isoDates.opened(node.name, node.attributes);
    } else if (this.#depth === 2) {
      this.#section = SECTIONS.has(node.name) ? (node.name as Section) : "other";
    } else if (this.#depth === 3) {
      this.#sectionChild(node);
    }
  }

  #sectionChild(node: XmlNode): void {
    const { name, attributes } = node;
    if (this.#section === "sheetData" && name === "row") {
      this.#inRow = true;
      this.#rowParser.parseOpen(this.#refs.row(node));
    } else if (this.#section === "cols" && name === "col") {
      this.#colParser.parseOpen(node);
      this.#colParser.reconcile(this.#colParser.model, this.options);
      this.cols.push(this.#colParser.model);
    } else if (this.#section === "mergeCells" && name === "mergeCell") {
      if (attributes.ref !== undefined) this.merges.push(attributes.ref);
    } else if (this.#section === "hyperlinks" && name === "hyperlink") {
      this.links.push({ address: attributes.ref, rId: attributes["r:id"] });
    }
  }

  text(text: string): void {
    if (!this.#inRow || this.#phonetic > 0) return;
    this.#rowParser.parseText(text);
    this.#isoDates.text(text);
  }

  close(name: string): void {
    this.#depth--;
    if (this.#phonetic > 0) this.#phonetic--;
    else if (this.#inRow && this.#rowParser.parseClose(name)) {
      this.#emptyResults.closed(name, this.#rowParser.model.cells);
      this.#isoDates.closed(name, this.#rowParser.model.cells);
    } else if (this.#inRow) {
      this.#inRow = false;
      const row = this.#rowParser.model;
      // Before reconciling: shared strings are still indexes then, and are not copied per cell.
      ownRowStrings(row);
      reconcileRow(this.#rowParser, row, this.options);
      this.#emptyResults.settle();
      this.#isoDates.settle();
      this.onRow(row);
    }
    if (this.#depth === 1) this.#section = "other";
    if (this.#depth === 0) this.finished = true;
  }
}

/** Reads the worksheet in `part`, each row to `onRow` in the part's order. */
export async function readSheetPart(
  part: Part,
  options: ReconcileOptions,
  onRow: (row: RowModel) => void,
): Promise<SheetTail> {
  const handler = new SheetHandler(options, onRow);
  await parsePart(part, handler);
  return { merges: handler.merges, links: handler.links, cols: handler.cols };
}
