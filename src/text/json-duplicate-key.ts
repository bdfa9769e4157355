/**
 * The first key written twice in one object of a JSON text. JSON.parse accepts such a text and
 * keeps the last value without a word, so a config file edited by hand (a setting pasted again
 * further down, a portal's "db" set twice) would run with a value its author may not have meant.
 *
 * The text has already parsed, so this is a scanner of valid JSON only: it follows strings (with
 * their escapes) and the nesting of objects and arrays, and treats everything else (numbers,
 * true, false, null, ":") as filler between them. It keeps its own stack rather than recursing,
 * as a deeply nested file must not overflow the call stack.
 */
import { positionAt } from "./text-position.js";

/** A key written twice in one object. */
export interface DuplicateKey {
  /**
   * Where the key is, dotted from the top with [i] for array items: "portals.acme.baseUrl"; a key
   * other than plain letters, digits and _ $ @ - is written ["as JSON"].
   */
  path: string;
  /** The line (1-based) of its first occurrence. */
  firstLine: number;
  /** The line (1-based) of its second occurrence. */
  secondLine: number;
}

interface ObjectFrame {
  kind: "object";
  path: string;
  /** Each key seen in this object, with the offset of its opening quote. */
  seen: Map<string, number>;
  /** The key whose value comes next, once read. */
  key: string;
  expectingKey: boolean;
}

interface ArrayFrame {
  kind: "array";
  path: string;
  index: number;
}

type Frame = ObjectFrame | ArrayFrame;

/**
 * Contract: `text` is valid JSON (JSON.parse accepts it); answers the first key, in text order,
 * that an object already holds, or undefined when no object holds a key twice.
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  const stack: Frame[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    const top = stack.at(-1);
    if (char === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === "object" && top.expectingKey) {
        const key = JSON.parse(text.slice(i, end)) as string;
        const first = top.seen.get(key);
        if (first !== undefined) {
          return {
            path: joinPath(top.path, key),
            firstLine: positionAt(text, first).line,
            secondLine: positionAt(text, i).line,
          };
        }
        top.seen.set(key, i);
        top.key = key;
        top.expectingKey = false;
      }
      i = end;
      continue;
    }
    if (char === "{") {
      stack.push({
        kind: "object",
        path: childPath(top),
        seen: new Map(),
        key: "",
        expectingKey: true,
      });
    } else if (char === "[") {
      stack.push({ kind: "array", path: childPath(top), index: 0 });
    } else if (char === "}" || char === "]") {
      stack.pop();
    } else if (char === ",") {
      if (top?.kind === "object") top.expectingKey = true;
      else if (top?.kind === "array") top.index += 1;
    }
    i += 1;
  }
  return undefined;
}

/** The offset just past the string whose opening quote is at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (text[i] !== '"') {
    // A backslash escapes the next character, a quote included; "\uXXXX" needs no more.
    i += text[i] === "\\" ? 2 : 1;
  }
  return i + 1;
}

/** The path of the value about to start inside `parent` (the top level's is ""). */
function childPath(parent: Frame | undefined): string {
  if (parent === undefined) return "";
  if (parent.kind === "array") return `${parent.path}[${parent.index}]`;
  return joinPath(parent.path, parent.key);
}

/** A key written as it is in a dotted path: letters, digits and _ $ @ - only. */
const PLAIN_KEY = /^[\p{L}\p{N}_$@-]+$/u;

/**
 * `key` added to `path`: dotted when plain, else as a JSON string in brackets (`a["x.y"]`,
 * `[""]`), so that a key holding a dot, a quote or a line break reads unambiguously and the
 * message stays on one line.
 */
function joinPath(path: string, key: string): string {
  if (PLAIN_KEY.test(key)) return path === "" ? key : `${path}.${key}`;
  const quoted = JSON.stringify(key).replace(
    /[\p{Cc}\p{Zl}\p{Zp}]/gu,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `${path}[${quoted}]`;
}
