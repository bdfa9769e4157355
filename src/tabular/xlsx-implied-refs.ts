/**
 * The references a worksheet may leave out. A `<row>` without `r` is the row after the one before
 * it, and a `<c>` without `r` the cell after the one before it in its row, the first column for
 * the first (the format makes both optional, and Excel and LibreOffice read them so). Writers that
 * stream a sheet leave them out; exceljs, whose row and cell parsers read the sheet here, failed
 * such a file ("Invalid row number in model"). The elements are handed to it with the reference
 * they imply written in.
 */
import { colCache, type XmlNode } from "./exceljs-parsers.js";

export class ImpliedRefs {
  /** The number of the row before, 0 before the first. */
  #line = 0;
  /** The column of the cell before in the current row, 0 before its first. */
  #col = 0;

  /** `node`, a `<row>`, with its number; it starts a row. */
  row(node: XmlNode): XmlNode {
    const written = node.attributes.r;
    const line = written === undefined ? this.#line + 1 : Number.parseInt(written, 10);
    // A number that is no number stays as written, for exceljs's parser to refuse as before.
    if (Number.isInteger(line)) this.#line = line;
    this.#col = 0;
    return written === undefined ? withRef(node, String(line)) : node;
  }

  /** `node`, a `<c>` of the current row, with its address. */
  cell(node: XmlNode): XmlNode {
    const written = node.attributes.r;
    if (written !== undefined) {
      // A reference that is no address is left for placeCells to refuse, as exceljs did.
      const { col } = colCache.decodeAddress(written);
      if (Number.isInteger(col)) this.#col = col;
      return node;
    }
    this.#col++;
    return withRef(node, `${colCache.n2l(this.#col)}${this.#line}`);
  }
}

function withRef(node: XmlNode, r: string): XmlNode {
  return { name: node.name, attributes: { ...node.attributes, r } };
}
