/**
 * Every command starts by loading the CLI's modules: the workbook library, the chart renderer
 * and the PostgreSQL client (about 0.7 s of a 1.8 s start on this machine) are loaded only by
 * the code that uses them, through `import()`. This walks the static imports from the CLI's
 * entry and fails when one of them is reached again.
 */
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect, test } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");
const LAZY = ["exceljs", "jszip", "@observablehq/plot", "linkedom", "pg", "pg-copy-streams"];

/** Static value imports of a source file: relative files and package names. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)";/gms)) {
    if (match[2] !== undefined) continue;
    const spec = match[3] as string;
    found.push(spec.startsWith(".") ? resolve(dirname(file), spec.replace(/\.js$/, ".ts")) : spec);
  }
  return found;
}

test("the CLI's start loads none of the packages only some commands need", () => {
  const start = join(SRC, "cli", "main.ts");
  const via = new Map<string, string | undefined>([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const target of importsOf(file)) {
      if (via.has(target)) continue;
      via.set(target, file);
      if (target.startsWith("/")) queue.push(target);
    }
  }
  const reached = LAZY.filter((name) => via.has(name)).map((name) => {
    const chain = [name];
    for (let at = via.get(name); at !== undefined; at = via.get(at)) {
      chain.unshift(relative(SRC, at));
    }
    return chain.join(" -> ");
  });
  expect(reached).toEqual([]);
  // The walk itself works: packages every command needs are reached.
  expect(via.has("@duckdb/node-api")).toBe(true);
  expect(via.has("yargs")).toBe(true);
});
