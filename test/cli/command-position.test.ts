/** A command's words are found after flags and their values, and not in a flag's value. */
import { describe, expect, it } from "vitest";
import { commandAt } from "../../src/cli/command-position.js";

describe("commandAt", () => {
  it("finds the command first, after flags and their values, or after a flag that takes none", () => {
    expect(commandAt(["report", "weekly"], ["report"])).toBe(0);
    expect(commandAt(["--db", "acme.duckdb", "report", "--", "-mine.sql"], ["report"])).toBe(2);
    expect(
      commandAt(["--db=acme.duckdb", "--json", "roster", "import"], ["roster", "import"]),
    ).toBe(2);
    expect(commandAt(["--json", "sql", "SELECT 1"], ["sql"])).toBe(1);
  });

  it("does not take a later word for the command, nor the command's own words for another", () => {
    expect(commandAt(["report", "weekly", "apply"], ["apply"])).toBe(-1);
    expect(commandAt(["acme.duckdb", "report"], ["report"])).toBe(-1);
    expect(commandAt(["roster", "export"], ["roster", "import"])).toBe(-1);
    expect(commandAt([], ["sql"])).toBe(-1);
  });
});
