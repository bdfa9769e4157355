/**
 * JSON lines (one object per line; a file holding one JSON array of objects is read the same
 * way). The columns are every key met, in the order first met; a value that is not a string is
 * kept as its JSON text (`42`, `true`, `{"a":1}`), null stays null (noted as a `null` cell, so
 * that a reader may tell it from a key left out), a whole number past 2^53 is noted as
 * `rounded`, and any other value that is not a string or a whole number as `unquoted`.
 */
import { errorText } from "../errors/error-text.js";
import { findDuplicateKey } from "../text/json-duplicate-key.js";
import { decodeUtf8 } from "./decode-text.js";
import {
  type CellNote,
  type CellNotes,
  TabularError,
  type TabularRow,
  type TabularSource,
} from "./types.js";

interface JsonRecord {
  readonly line: number;
  readonly object: Record<string, unknown>;
}

function asObject(value: unknown, file: string, line: number): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TabularError(`${file} line ${line}: expected a JSON object ({"user_id": ...})`, {
      line,
    });
  }
  return value as Record<string, unknown>;
}

/**
 * Parses `text`, which starts on line `line` of the file. V8's message may quote the text, line
 * breaks included: it is made one line and short. When it names a position, the line is found
 * from it (a JSON array spans many lines).
 */
function parseLine(text: string, file: string, line: number): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = errorText(error);
    const position = /\bposition (\d+)/.exec(message)?.[1];
    const at = position === undefined ? line : line + countLines(text, Number(position));
    const reason = message.replace(/\s+/g, " ");
    const shown = reason.length > 160 ? `${reason.slice(0, 157)}...` : reason;
    throw new TabularError(`${file} line ${at}: not JSON (${shown})`, { line: at, cause: error });
  }
  // JSON.parse keeps the last of a key written twice: {"user_id": 1, "user_id": 2} would be
  // person 2 without a word, as the config file's reader also refuses.
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) {
    const at = line + duplicate.secondLine - 1;
    throw new TabularError(
      `${file} line ${at}: key ${JSON.stringify(duplicate.path)} is written twice in one object, and only the last would count: remove one`,
      { line: at },
    );
  }
  return parsed;
}

/** Line breaks in `text` before `end`. */
function countLines(text: string, end: number): number {
  let breaks = 0;
  for (let i = 0; i < Math.min(end, text.length); i++) if (text.charCodeAt(i) === 10) breaks++;
  return breaks;
}

function parseRecords(text: string, file: string): JsonRecord[] {
  if (text.trimStart().startsWith("[")) {
    const array = parseLine(text, file, 1);
    if (!Array.isArray(array)) throw new TabularError(`${file}: expected a JSON array of objects`);
    // An array has no line per record: number them as rows.
    return array.map((value, index) => ({
      line: index + 1,
      object: asObject(value, file, index + 1),
    }));
  }
  const records: JsonRecord[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const source = lines[index] as string;
    if (source.trim() === "") continue;
    records.push({
      line: index + 1,
      object: asObject(parseLine(source, file, index + 1), file, index + 1),
    });
  }
  return records;
}

function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value === "" ? null : value;
  return JSON.stringify(value);
}

/** What a reader is told of a JSON value beyond its text, if anything. */
function noteOf(value: unknown): CellNote | undefined {
  // A key given as null: a reader may tell it from a key left out.
  if (value === null) return { kind: "null" };
  // An id written as a bare number past 2^53 arrives rounded (Node 20's JSON.parse cannot give
  // the number's own text): the reader must refuse it rather than store another id.
  if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return { kind: "rounded" };
  }
  // `true` and the string "true" read as the same text: a reader that wants text must be told
  // which one the file gave. A whole number is its digits, as a string of them would be.
  if (typeof value === "boolean") return { kind: "unquoted", what: "boolean" };
  if (typeof value === "number") {
    return Number.isInteger(value) ? undefined : { kind: "unquoted", what: "number" };
  }
  if (Array.isArray(value)) return { kind: "unquoted", what: "list" };
  if (typeof value === "object") return { kind: "unquoted", what: "object" };
  return undefined;
}

/** The notes of every record's values, per line. */
function jsonNotes(records: readonly JsonRecord[], columns: readonly string[]): CellNotes {
  const notes = new Map<number, Map<number, CellNote>>();
  for (const { line, object } of records) {
    columns.forEach((key, index) => {
      const note = noteOf(object[key]);
      if (note === undefined) return;
      const row = notes.get(line) ?? new Map<number, CellNote>();
      notes.set(line, row.set(index, note));
    });
  }
  return notes;
}

export function openJsonLines(bytes: Uint8Array, file: string): TabularSource {
  const text = decodeUtf8(bytes, file, "UTF-8");
  const records = parseRecords(text, file);
  if (records.length === 0) throw new TabularError(`${file} is empty: it has no records`);
  const index = new Map<string, number>();
  for (const { object } of records) {
    for (const key of Object.keys(object)) if (!index.has(key)) index.set(key, index.size);
  }
  const columns = [...index.keys()];
  function* rows(): Generator<TabularRow> {
    for (const { line, object } of records) {
      const values = columns.map((key) => asText(object[key]));
      yield { line, values };
    }
  }
  const array = text.trimStart().startsWith("[");
  return {
    format: "jsonl",
    columns,
    unit: array ? "row" : "line",
    detail: array ? "JSON array" : "JSON lines",
    rows,
    notes: jsonNotes(records, columns),
  };
}
