/**
 * The entry point of every command that reads a table from a file: read the bytes once (their
 * sha256 identifies the file that was imported), pick the reader, open it.
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { errnoCode } from "../config/errno-code.js";
import { specialFileKind } from "../files/file-kind.js";
import { openCsv } from "./csv-reader.js";
import { detectFormat } from "./detect-format.js";
import { type FileStamp, fileStamp } from "./file-stamp.js";
import { openJsonLines } from "./jsonl-reader.js";
import { openParquet } from "./parquet-reader.js";
import { TabularError, type TabularSource } from "./types.js";

export interface TabularFile {
  readonly source: TabularSource;
  /** Hex sha256 of the file's bytes. */
  readonly sha256: string;
  readonly size: number;
  /** The file as it was before it was read, for checkUnchanged once the reading is done. */
  readonly stamp: FileStamp | undefined;
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "does not exist",
  EISDIR: "is a directory; give a file",
  EACCES: "cannot be read (permission denied)",
  EPERM: "cannot be read (permission denied)",
};

/**
 * The file's bytes. A device or a socket is refused before any byte is read: read whole, as the
 * sha256 and the readers need, /dev/urandom ran for minutes past Ctrl-C (files/file-kind.ts). A
 * named pipe (`<(curl …)`, a piped /dev/stdin) is read until its writer closes it.
 */
async function readBytes(path: string, file: string): Promise<Buffer> {
  try {
    const info = await stat(path);
    if (!info.isFile() && !info.isDirectory() && !info.isFIFO()) {
      throw new TabularError(
        `${file} is ${specialFileKind(info)}, not a regular file; give the file itself (a device's reading has no end)`,
      );
    }
    return await readFile(path);
  } catch (error) {
    if (error instanceof TabularError) throw error;
    const code = errnoCode(error);
    const reason = READ_ERRORS[code ?? ""] ?? `cannot be read (${code})`;
    throw new TabularError(`${file} ${reason}`, {
      cause: error,
      code: code === "ENOENT" ? "not-found" : "bad-input",
    });
  }
}

/**
 * Opens the table in the file at `path` (`file` is how messages name it). `sheet` picks an XLSX
 * sheet by name and is refused for other formats; `sheetOption` says the command takes --sheet
 * (a hidden first sheet's refusal then points to it). Throws TabularError when the file is missing,
 * unreadable, empty, or not readable in its format.
 */
export async function openTabularFile(
  path: string,
  options: { file?: string; sheet?: string; sheetOption?: boolean } = {},
): Promise<TabularFile> {
  const file = options.file ?? path;
  const stamp = await fileStamp(path);
  const bytes = await readBytes(path, file);
  // Blank text files are caught by their readers; a file of no bytes has no format to detect.
  if (bytes.length === 0) throw new TabularError(`${file} is empty: it has no header and no rows`);
  const format = detectFormat(bytes, path, file);
  if (options.sheet !== undefined && format !== "xlsx") {
    throw new TabularError(
      `${file} is ${format.toUpperCase()}, which has no sheets; leave out --sheet`,
    );
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const source =
    format === "csv"
      ? openCsv(bytes, file)
      : format === "jsonl"
        ? openJsonLines(bytes, file)
        : format === "xlsx"
          ? await openWorkbook(bytes, file, options.sheet, options.sheetOption ?? false)
          : await openParquet(path, file);
  return { source, sha256, size: bytes.length, stamp };
}

/** The workbook reader, loaded for a workbook only: its zip and XML readers slow every start. */
async function openWorkbook(
  bytes: Buffer,
  file: string,
  sheet: string | undefined,
  sheetOption: boolean,
): Promise<TabularSource> {
  const { openXlsx } = await import("./xlsx-reader.js");
  return openXlsx(bytes, file, sheet, sheetOption);
}
