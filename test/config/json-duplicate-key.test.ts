/**
 * The scanner that finds a key written twice in one object of a valid JSON text, which
 * JSON.parse would accept keeping the last value.
 */
import { describe, expect, it } from "vitest";
import { findDuplicateKey } from "../../src/text/json-duplicate-key.js";

describe("findDuplicateKey", () => {
  it.each([
    ['{"a": 1, "b": {"a": 2}}', "the same key in nested objects"],
    ['{"p": {"x": {"k": 1}, "y": {"k": 2}}}', "the same key in sibling objects"],
    ['[{"k": 1}, {"k": 2}]', "the same key in two array items"],
    ['{"a": "\\"b\\": 1, \\"a\\": {", "b": "}"}', "braces, quotes and keys inside strings"],
    ['{"a\\\\": 1, "a": 2}', "a key ending in an escaped backslash"],
    ["{}", "an empty object"],
    ['"{\\"a\\": 1, \\"a\\": 2}"', "a lone string"],
  ])("finds none in %s (%s)", (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(findDuplicateKey(text)).toBeUndefined();
  });

  it.each([
    ['{"a": 1,\n"a": 2}', { path: "a", firstLine: 1, secondLine: 2 }],
    ['{"x": [0, {"k": [], "j": 1,\n\n "k": {}}]}', { path: "x[1].k", firstLine: 1, secondLine: 3 }],
    [
      '{"p": {"q": {"r": 1}},\n "s": {"t": 1, "\\u0074": 2}}',
      { path: "s.t", firstLine: 2, secondLine: 2 },
    ],
    ['{"a": {"b": 1}, "a": {"c": 2}}', { path: "a", firstLine: 1, secondLine: 1 }],
  ])("finds the one in %j", (text, expected) => {
    expect(findDuplicateKey(text)).toEqual(expected);
  });

  it.each([
    ['{"p": {"a\\nb": 1, "a\\nb": 2}}', 'p["a\\nb"]'],
    ['{"p": {"x\\"y": 1, "x\\"y": 2}}', 'p["x\\"y"]'],
    ['{"a.b": {"c": 1, "c": 2}}', '["a.b"].c'],
    ['{"": 1, "": 2}', '[""]'],
    ['{"x\\u2028y": 1, "x\\u2028y": 2}', '["x\\u2028y"]'],
    ['{"__proto__": 1, "__proto__": 2}', "__proto__"],
  ])("names the key of %j on one line, unambiguously, as %j", (text, path) => {
    expect(findDuplicateKey(text)?.path).toBe(path);
  });

  it("answers the first in text order", () => {
    expect(findDuplicateKey('{"b": 1, "a": 1,\n"a": 2,\n"b": 2}')?.path).toBe("a");
  });

  it("scans a deeply nested text without overflowing the stack", () => {
    const depth = 100_000;
    const text = `${'{"k":'.repeat(depth)}{"d": 1, "d": 2}${"}".repeat(depth)}`;
    expect(findDuplicateKey(text)?.path).toBe(`${"k.".repeat(depth)}d`);
  });
});
