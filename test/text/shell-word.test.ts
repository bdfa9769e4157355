/**
 * Words of the commands the tool shows to be pasted. A path beginning with `-` is given as
 * `./-…`: `sql --db -dash.duckdb` was read back as the options -d, -a, -s, … and failed.
 */
import { describe, expect, test } from "vitest";
import { pathWord, shellWord } from "../../src/text/shell-word.js";

describe("shell words", () => {
  test("plain words stay as they are, others are single-quoted", () => {
    expect(shellWord("lms.duckdb")).toBe("lms.duckdb");
    expect(shellWord("my db.duckdb")).toBe("'my db.duckdb'");
    expect(shellWord("o'brien")).toBe("'o'\\''brien'");
  });

  test("a path beginning with a dash cannot be read as an option", () => {
    expect(pathWord("-dash.duckdb")).toBe("./-dash.duckdb");
    expect(pathWord("-my db.duckdb")).toBe("'./-my db.duckdb'");
    expect(pathWord("/abs/-x.duckdb")).toBe("/abs/-x.duckdb");
    expect(pathWord("data/lms.duckdb")).toBe("data/lms.duckdb");
  });
});
