/**
 * `publish --lake` from a database file with a damaged block in the middle of a published table:
 * the publish fails naming the table and the damage, and the lake stays the previous publish,
 * byte for byte (its manifest and every file), with nothing of the failed one left behind.
 * test/publish/postgres-damaged-block.test.ts is the same case for PostgreSQL.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { publishLake } from "../../src/publish/lake/publish-lake.js";
import { tempDir } from "../helpers/temp-dir.js";
import { DAMAGED_CASES, damagedAfter } from "./helpers/damaged-block.js";

/** Every file below `dir` with its bytes, relative to it. */
async function lakeFiles(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, string>();
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), (await readFile(path)).toString("base64"));
  }
  return files;
}

describe("publish --lake from a database with a damaged block", () => {
  test.each(DAMAGED_CASES)("$table: fails naming it, the lake stays as it was", async (grown) => {
    const { table } = grown;
    const dir = await tempDir();
    const lake = join(dir, "lake");
    const { damaged, first: before } = await damagedAfter(dir, grown, async (db) => {
      await publishLake(db, { lakeDir: lake, snapshotDate: "2026-11-27" });
      return lakeFiles(lake);
    });
    try {
      const error = await publishLake(damaged, { lakeDir: lake, snapshotDate: "2026-11-28" }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      const message = (error as Error).message;
      expect(message).toContain(`copying ${table}: `);
      expect(message).toMatch(/Corrupt database file/);
      expect(message.split("\n")).toHaveLength(1);
    } finally {
      damaged.close();
    }
    expect(await lakeFiles(lake)).toEqual(before);
  });
});
