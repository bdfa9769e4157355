/**
 * An XLSX file as a zip of XML parts, each read as SAX events while it is inflated. The bytes
 * are already in memory, so parts are opened by name in whatever order the reader needs them:
 * a workbook laid out as Excel saves one (the sheet before the shared strings and the styles it
 * refers to) reads like any other, with no part but the one being parsed held inflated. JSZip is
 * the zip reader exceljs's whole-workbook loader used, so a file that is not a zip fails with the
 * same reasons as before.
 */
import { StringDecoder } from "node:string_decoder";
import JSZip from "jszip";
import { SaxesParser } from "saxes";
import type { Xform, XmlNode } from "./exceljs-parsers.js";
import { ElementPrefixes } from "./xlsx-prefixes.js";

/** What a SAX pass over a part is told, in document order. */
export interface XmlHandler {
  open(node: XmlNode): void;
  text(text: string): void;
  close(name: string): void;
  /** True once the part's root element has closed: what follows it is not read. */
  readonly finished?: boolean;
}

export type Part = JSZip.JSZipObject;

/** The parts of a zip by name, a leading "/" dropped as exceljs's loader drops it. */
export async function openPackage(bytes: Uint8Array): Promise<ReadonlyMap<string, Part>> {
  const zip = await JSZip.loadAsync(bytes);
  const parts = new Map<string, Part>();
  for (const part of Object.values(zip.files)) {
    if (!part.dir) parts.set(part.name.replace(/^\//, ""), part);
  }
  return parts;
}

/**
 * Parses `part` into `handler` as it is inflated, up to the close of its root element. Fails on
 * the first XML error, with the SAX parser's message as exceljs gave it; a part cut short is read
 * up to where it stops, as exceljs read it (it never closed the parser).
 */
export function parsePart(part: Part, handler: XmlHandler): Promise<void> {
  return new Promise((resolve, reject) => {
    const parser = new SaxesParser();
    let failure: unknown;
    parser.on("error", (error) => {
      failure ??= error;
    });
    const names = new ElementPrefixes();
    parser.on("opentag", (node) => handler.open(names.opened(node)));
    parser.on("text", (text) => handler.text(text));
    parser.on("closetag", (node) => handler.close(names.local(node.name)));
    // A character split between two inflated chunks must be decoded whole.
    const decoder = new StringDecoder("utf8");
    const stream = part.nodeStream("nodebuffer");
    const write = (text: string): boolean => {
      try {
        parser.write(text);
      } catch (error) {
        failure ??= error;
      }
      if (failure === undefined && !handler.finished) return true;
      stream.removeAllListeners("data");
      stream.pause();
      if (failure === undefined) resolve();
      else reject(failure);
      return false;
    };
    stream.on("data", (chunk: Buffer) => write(decoder.write(chunk)));
    stream.on("error", reject);
    stream.on("end", () => {
      if (write(decoder.end())) resolve();
    });
  });
}

/** Feeds one of exceljs's parsers until the element it was opened on closes, as exceljs did. */
export function xformHandler(xform: Xform<unknown>): XmlHandler {
  let done = false;
  return {
    get finished() {
      return done;
    },
    open: (node) => {
      if (!done) xform.parseOpen(node);
    },
    text: (text) => {
      if (!done) xform.parseText(text);
    },
    close: (name) => {
      if (!done && !xform.parseClose(name)) done = true;
    },
  };
}

/** Parses the part at `path` with `xform`, or answers undefined when there is no such part. */
export async function readPart<X extends Xform<unknown>>(
  parts: ReadonlyMap<string, Part>,
  path: string,
  xform: X,
): Promise<X | undefined> {
  const part = parts.get(path);
  if (part === undefined) return undefined;
  await parsePart(part, xformHandler(xform));
  return xform;
}
