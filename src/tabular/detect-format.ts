/**
 * Which reader a file needs: binary formats by their first bytes (a workbook renamed `.csv` is
 * still a workbook), text formats by extension, then by their first character.
 */
import { extname } from "node:path";
import { isDuckDbHeader } from "../files/duckdb-header.js";
import { TabularError, type TabularFormat } from "./types.js";

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const PARQUET = [0x50, 0x41, 0x52, 0x31];
const OLE = [0xd0, 0xcf, 0x11, 0xe0];

const BY_EXTENSION: Readonly<Record<string, TabularFormat>> = {
  ".csv": "csv",
  ".tsv": "csv",
  ".txt": "csv",
  ".xlsx": "xlsx",
  ".xlsm": "xlsx",
  ".parquet": "parquet",
  ".pq": "parquet",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
  ".json": "jsonl",
};

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((byte, i) => bytes[i] === byte);
}

function firstTextChar(bytes: Uint8Array): string {
  const head = new TextDecoder("utf-8").decode(bytes.subarray(0, 64));
  return head.trimStart().charAt(0);
}

/**
 * The format of the `bytes` of the file at `path` (`file` names it in messages); throws
 * TabularError for a format no reader handles.
 */
export function detectFormat(bytes: Uint8Array, path: string, file: string): TabularFormat {
  const byName = BY_EXTENSION[extname(path).toLowerCase()];
  if (startsWith(bytes, OLE)) {
    throw new TabularError(
      `${file} is a legacy Excel (.xls) file; save it as .xlsx or as CSV UTF-8 and run the command on that file`,
    );
  }
  if (isDuckDbHeader(bytes)) {
    throw new TabularError(
      `${file} is a DuckDB database, not a table of rows; give the file to read first, and the database with --db`,
    );
  }
  if (startsWith(bytes, ZIP)) return "xlsx";
  if (startsWith(bytes, PARQUET)) return "parquet";
  if (byName === "xlsx" || byName === "parquet") {
    throw new TabularError(`${file} is not a${byName === "xlsx" ? "n XLSX" : " Parquet"} file`);
  }
  if (byName) return byName;
  return firstTextChar(bytes) === "{" ? "jsonl" : "csv";
}
