/**
 * Element names of a part that binds SpreadsheetML to a prefix (`<x:worksheet xmlns:x="…main">`,
 * `<x:row>`, `<x:c>`), as some .NET writers save workbooks: the same elements as unprefixed ones,
 * to every reader of XML. exceljs's parsers compare names with the unprefixed ones only, so such
 * a sheet read as empty and such a workbook as one with no sheets: the prefix is taken off the
 * names bound to the package's namespaces before any parser sees them. Only the root element's
 * declarations are read, where writers put them, so that a large sheet's cells cost nothing.
 */
import type { XmlNode } from "./exceljs-parsers.js";

/** The namespaces whose elements the parsers know by their local names. */
const KNOWN = new Set([
  "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
  "http://schemas.openxmlformats.org/package/2006/relationships",
  "http://schemas.openxmlformats.org/package/2006/content-types",
]);

export class ElementPrefixes {
  /** `x:` for each prefix the root binds to a known namespace; undefined before the root. */
  #prefixes: readonly string[] | undefined;

  /** `node` under its local name when its prefix is bound to a known namespace. */
  opened(node: XmlNode): XmlNode {
    this.#prefixes ??= declared(node);
    const name = this.local(node.name);
    return name === node.name ? node : { name, attributes: node.attributes };
  }

  /** `name` (of an element opened or closed) without a known prefix. */
  local(name: string): string {
    for (const prefix of this.#prefixes ?? []) {
      if (name.startsWith(prefix)) return name.slice(prefix.length);
    }
    return name;
  }
}

function declared(root: XmlNode): readonly string[] {
  return Object.entries(root.attributes)
    .filter(([key, uri]) => key.startsWith("xmlns:") && KNOWN.has(uri))
    .map(([key]) => `${key.slice("xmlns:".length)}:`);
}
