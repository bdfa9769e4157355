/**
 * What a caught value says: an Error's message, anything else as text, and the first line alone
 * where a message must be one line (a DuckDB error runs on over lines of context).
 */
import { describe, expect, test } from "vitest";
import { errorFirstLine, errorText } from "../../src/errors/error-text.js";

describe("the text of a caught value", () => {
  test("is an Error's message, or the value itself as text", () => {
    expect(errorText(new TypeError("bad row"))).toBe("bad row");
    expect(errorText("plain words")).toBe("plain words");
    expect(errorText(42)).toBe("42");
    expect(errorText(undefined)).toBe("undefined");
  });

  test("keeps its first line only where one line is wanted", () => {
    const error = new Error('Binder Error: column "x" not found\n\nLINE 1: SELECT x\n        ^');
    expect(errorFirstLine(error)).toBe('Binder Error: column "x" not found');
    expect(errorText(error)).toContain("LINE 1");
    expect(errorFirstLine("one\ntwo")).toBe("one");
    expect(errorFirstLine(new Error(""))).toBe("");
  });
});
