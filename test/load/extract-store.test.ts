/**
 * The extract's side file: created with the staging tables beside the database, taking over what
 * a database written before it held, refusing a second instance of the database in this process;
 * and the store's waits for a database another process holds.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import { openDatabase } from "../../src/load/database.js";
import { ExtractStore } from "../../src/load/extract-store.js";
import { adoptLegacyStaging } from "../../src/load/legacy-staging.js";
import { silentLogger } from "../../src/log/logger.js";
import { RESOURCES } from "../../src/resources/registry.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDir } from "../helpers/temp-dir.js";
import { kill, spawnHelper, waitForLine } from "./helpers/child-process.js";

const waits = {
  side: { seconds: undefined, logger: silentLogger },
  database: { seconds: 5, logger: silentLogger },
};

const GROUP =
  "(1, 'g', NULL, NULL, NULL, NULL, TIMESTAMP '2026-01-01', TIMESTAMP '2026-01-02', NULL";

describe("the extract's side file", () => {
  it("holds the staging tables, nullable, with the arrival order, beside the database", async () => {
    const path = join(await tempDir(), "lms.duckdb");
    const store = await ExtractStore.open(path, waits);
    try {
      expect(store.sidePath).toBe(`${path}.staging`);
      const connection = await store.connect();
      const reader = await connection.runAndReadAll(
        "SELECT column_name, is_nullable FROM information_schema.columns WHERE table_name = '_stage_take' ORDER BY ordinal_position",
      );
      expect(reader.getRows().map((r) => r[0])).toEqual([
        ...RESOURCES.take.fields.map((f) => f.name),
        "_extra",
        "_seq",
      ]);
      expect(reader.getRows().every((r) => r[1] === "YES")).toBe(true);
      // The database is created on first use, with the resource tables and no staging.
      const names = await store.withDatabase("read", async (db) =>
        (
          await db.runAndReadAll(
            "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database()",
          )
        )
          .getRows()
          .map((r) => String(r[0])),
      );
      expect(names).toContain("take");
      expect(names.filter((n) => n.startsWith("_stage_") || n === "_checkpoint")).toEqual([]);
    } finally {
      store.close();
    }
  });

  it("takes over the staging and checkpoints an older database held, and drops them there", async () => {
    const path = join(await tempDir(), "old.duckdb");
    const db = await openDatabase(path);
    const old = await db.connect();
    await old.run(
      "CREATE TABLE _stage_grp AS SELECT * FROM grp LIMIT 0; ALTER TABLE _stage_grp ADD COLUMN _seq BIGINT",
    );
    await old.run(`INSERT INTO _stage_grp VALUES ${GROUP}, 7)`);
    await old.run(
      "CREATE TABLE _checkpoint (run_id BIGINT NOT NULL, resource VARCHAR NOT NULL, kind VARCHAR NOT NULL, key VARCHAR NOT NULL, PRIMARY KEY (run_id, resource, kind, key))",
    );
    await old.run("INSERT INTO _checkpoint VALUES (4, 'grp', 'page', '0')");
    db.close();

    const store = await ExtractStore.open(path, waits);
    try {
      await store.withDatabase("write", (connection) => adoptLegacyStaging(connection, store.side));
      const side = await store.connect();
      const staged = await side.runAndReadAll("SELECT grp_id, grp_name, _seq FROM _stage_grp");
      expect(staged.getRows()).toEqual([[1n, "g", 7n]]);
      const marks = await side.runAndReadAll("SELECT run_id, resource, kind, key FROM _checkpoint");
      expect(marks.getRows()).toEqual([[4n, "grp", "page", "0"]]);
      // A second take-over finds nothing left to move.
      await store.withDatabase("write", (connection) => adoptLegacyStaging(connection, store.side));
      expect((await side.runAndReadAll("SELECT count(*) FROM _stage_grp")).getRows()).toEqual([
        [1n],
      ]);
    } finally {
      store.close();
    }
    const left = await readRows(
      path,
      "SELECT count(*) FROM duckdb_tables() WHERE table_name IN ('_stage_grp', '_checkpoint')",
    );
    expect(left).toEqual([[0n]]);
  });

  it("drops the primary key an older side file's _checkpoint had, keeping its checkpoints", async () => {
    const path = join(await tempDir(), "keyed.duckdb");
    const instance = await DuckDBInstance.create(`${path}.staging`);
    const connection = await instance.connect();
    await connection.run(
      "CREATE TABLE _checkpoint (run_id BIGINT NOT NULL, resource VARCHAR NOT NULL, kind VARCHAR NOT NULL, key VARCHAR NOT NULL, PRIMARY KEY (run_id, resource, kind, key))",
    );
    await connection.run("INSERT INTO _checkpoint VALUES (4, 'take', 'parent', '17')");
    connection.closeSync();
    instance.closeSync();

    const store = await ExtractStore.open(path, waits);
    try {
      const side = await store.connect();
      await side.run("INSERT INTO _checkpoint VALUES (4, 'take', 'parent', '17')");
      const rows = await side.runAndReadAll("SELECT run_id, key FROM _checkpoint");
      expect(rows.getRows()).toEqual([
        [4n, "17"],
        [4n, "17"],
      ]);
    } finally {
      store.close();
    }
  });

  it("adds the staging columns the registry gained since a side file was written, keeping its rows", async () => {
    const path = join(await tempDir(), "older-side.duckdb");
    const first = await ExtractStore.open(path, waits);
    expect(first.freshSide).toBe(true);
    const before = await first.connect();
    await before.run("INSERT INTO _stage_take (take_id, _seq) VALUES (7, 1)");
    await before.run("ALTER TABLE _stage_take DROP COLUMN take_score");
    await before.run('ALTER TABLE _stage_grp DROP COLUMN "_extra"');
    first.close();

    const store = await ExtractStore.open(path, waits);
    // Its staging writers look its tables up, rather than take the registry's columns.
    expect(store.freshSide).toBe(false);
    try {
      const side = await store.connect();
      const columns = await side.runAndReadAll(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE (table_name, column_name) IN (('_stage_take', 'take_score'), ('_stage_grp', '_extra')) ORDER BY table_name",
      );
      expect(columns.getRows()).toEqual([
        ["_stage_grp", "_extra"],
        ["_stage_take", "take_score"],
      ]);
      const rows = await side.runAndReadAll("SELECT take_id, take_score FROM _stage_take");
      expect(rows.getRows()).toEqual([[7n, null]]);
    } finally {
      store.close();
    }
  });

  it("refuses a side file whose .wal is a folder, before DuckDB fails on its first commit", async () => {
    const path = join(await tempDir(), "lms.duckdb");
    await mkdir(`${path}.staging.wal`);
    const message = `${path}.staging.wal is a folder, but DuckDB keeps a write-ahead log in a file of that name: move, rename or remove the folder (it holds nothing of DuckDB's), or choose another --db`;
    await expect(ExtractStore.open(path, waits)).rejects.toThrow(message);
    const db = await openDatabase(path);
    try {
      await expect(ExtractStore.open(db, waits)).rejects.toThrow(message);
    } finally {
      db.close();
    }
    expect(existsSync(`${path}.staging`)).toBe(false);
  });

  it("refuses a path this process holds open (the file lock would not keep the two apart)", async () => {
    const path = join(await tempDir(), "held.duckdb");
    const db = await openDatabase(path);
    try {
      await expect(ExtractStore.open(path, waits)).rejects.toThrow(
        `database ${path} is open in this process; close it before extracting by path, or pass the open database`,
      );
    } finally {
      db.close();
    }
  });

  it("ends one call's wait for the database with that call's stop; later calls wait as before", async () => {
    const path = join(await tempDir(), "waits.duckdb");
    const store = await ExtractStore.open(path, {
      side: { seconds: undefined, logger: silentLogger },
      database: { seconds: 30, logger: silentLogger },
    });
    // Created and migrated before another process holds it.
    await store.withDatabase("write", async () => undefined);
    const reader = spawnHelper("hold-lock.mjs", [path, "read-only"]);
    try {
      await waitForLine(reader, "ready");
      const stop = new AbortController();
      const stopped = store.withDatabase("write", async () => "written", { stop: stop.signal });
      stop.abort(new LmsExportError("auth-refused", "the key was refused"));
      await expect(stopped).rejects.toMatchObject({ code: "auth-refused" });
      const later = store.withDatabase("write", async () => "written");
      await new Promise((resolve) => setTimeout(resolve, 300));
      await kill(reader);
      await expect(later).resolves.toBe("written");
    } finally {
      await kill(reader);
      store.close();
    }
  });
});
