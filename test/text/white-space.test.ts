/**
 * The white space trim() removes, in DuckDB's SQL (src/text/white-space.ts): written once, for the
 * mail split (src/mail/address.ts) and the roster's shared-address check
 * (src/roster/shared-emails.ts) alike, so that the two cannot come to remove different characters.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { spelledAddressSql } from "../../src/mail/address.js";
import { trimmedSql } from "../../src/text/white-space.js";

const ROOT = new URL("../../", import.meta.url).pathname;

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

test("the class of white space is written in one module of src/ only", async () => {
  const holding: string[] = [];
  for (const file of await sourceFiles(join(ROOT, "src"))) {
    // The byte-order mark as RE2 writes it, which only that class has.
    if ((await readFile(join(ROOT, file), "utf8")).includes("\\\\x{FEFF}")) holding.push(file);
  }
  expect(holding).toEqual(["src/text/white-space.ts"]);
});

test("the mail split's address and the trimmed SQL take off what trim() takes off", async () => {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    const padded = "chr(9) || chr(65279) || chr(160) || ' Mgr@Example.com' || chr(13) || chr(10)";
    const reader = await connection.runAndReadAll(
      `SELECT ${trimmedSql(padded)}, ${spelledAddressSql(padded)}, ${trimmedSql("chr(11) || chr(8232)")}`,
    );
    expect(reader.getRowsJS()).toEqual([["Mgr@Example.com", "Mgr@Example.com", ""]]);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
});
