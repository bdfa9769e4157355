import { describe, expect, it } from "vitest";
import { typedTexts } from "../../src/cli/typed-flag-text.js";

describe("typedTexts", () => {
  it("answers both spellings in order, and stops at a lone --", () => {
    const argv = ["extract", "--rate", "1e400", "--rate=abc", "--", "--rate", "9"];
    expect(typedTexts("rate", argv)).toEqual(["1e400", "abc"]);
  });

  it("does not take a longer flag's text, nor a value missing at the end", () => {
    expect(typedTexts("rate", ["--rate-limit=3", "--rates", "4", "--rate"])).toEqual([]);
  });
});
