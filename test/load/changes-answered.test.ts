/**
 * `_changes.answered` came after databases were written: a file without it opens, gains it, and
 * its earlier rows hold no value (the merge counts them by their outcome alone, merge.ts).
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { CHANGES_COLUMNS } from "../../src/load/meta-ddl.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-changes-answered-");

it("a file written before _changes.answered opens and gains it, empty for its rows", async () => {
  const path = join(dir, "old.duckdb");
  const old = await openDatabase(path);
  const before = await old.connect();
  for (const column of CHANGES_COLUMNS.keys()) {
    await before.run(`ALTER TABLE _changes DROP COLUMN ${column}`);
  }
  await before.run(
    "INSERT INTO _changes VALUES ('set', 'links.csv', 2, 'user_grp.create', 7, NULL, NULL, 'applied', NULL, TIMESTAMP '2026-01-05 00:00:00')",
  );
  before.closeSync();
  old.close();

  const db = await openDatabase(path);
  const connection = await db.connect();
  try {
    const read = await connection.runAndReadAll(
      "SELECT record_id, outcome, answered FROM _changes",
    );
    expect(read.getRowObjectsJson()).toEqual([
      { record_id: "7", outcome: "applied", answered: null },
    ]);
  } finally {
    connection.closeSync();
    db.close();
  }
});
