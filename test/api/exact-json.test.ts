/** The digits of whole numbers past 2^53 - 1 survive parsing; everything else parses as JSON.parse does. */
import { describe, expect, it } from "vitest";
import { hasDigitRun, parseExactJson } from "../../src/api/exact-json.js";

describe("parseExactJson", () => {
  it("reads a whole number past 2^53 - 1 as its digits, either sign, in objects and arrays", () => {
    expect(
      parseExactJson('{"a":9007199254740993,"b":[-9007199254740993, 90071992547409930]}'),
    ).toEqual({ a: "9007199254740993", b: ["-9007199254740993", "90071992547409930"] });
  });

  it("leaves strings, safe integers and decimals as JSON.parse reads them", () => {
    const text =
      '{"s":"\\\\","t":"x\\"9007199254740993","n":9007199254740991,"d":1234567890123456.5,"e":1.5e300}';
    expect(parseExactJson(text)).toEqual(JSON.parse(text));
  });

  it("throws on text that is not JSON", () => {
    expect(() => parseExactJson('{"a":9007199254740993')).toThrow(SyntaxError);
  });
});

describe("hasDigitRun", () => {
  it("finds 16 digits in a row wherever they stand, and not 15", () => {
    for (let at = 0; at < 40; at++) {
      const pad = "x".repeat(at);
      expect(hasDigitRun(`${pad}1234567890123456${pad}`), `at ${at}`).toBe(true);
      expect(hasDigitRun(`${pad}123456789012345${pad}`), `at ${at}`).toBe(false);
    }
  });
});
