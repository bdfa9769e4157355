import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { RUN_PACE_COLUMNS } from "../../src/load/meta-ddl.js";
import { recordRunPace } from "../../src/load/run-pace.js";
import { startRun } from "../../src/load/runs.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-run-pace-");

describe("the pace of a run in _runs", () => {
  it("a file written before the pace columns opens, gains them (null for old runs) and records them", async () => {
    const path = join(dir, "old.duckdb");
    // A file as an older version wrote it: _runs without the pace columns, one run in it.
    const old = await openDatabase(path);
    const before = await old.connect();
    for (const column of RUN_PACE_COLUMNS.keys()) {
      await before.run(`ALTER TABLE _runs DROP COLUMN ${column}`);
    }
    await startRun(before, { mode: "full", since: null, options: {} });
    before.closeSync();
    old.close();

    const db = await openDatabase(path);
    const connection = await db.connect();
    try {
      const select =
        "SELECT run_id, concurrency_min, concurrency_max, concurrency_final, overload_answers FROM _runs ORDER BY run_id";
      const read = async () => (await connection.runAndReadAll(select)).getRowObjectsJson();
      expect(await read()).toEqual([
        {
          run_id: "1",
          concurrency_min: null,
          concurrency_max: null,
          concurrency_final: null,
          overload_answers: null,
        },
      ]);
      const run = await startRun(connection, { mode: "full", since: null, options: {} });
      await recordRunPace(connection, run, { min: 4, max: 32, final: 16, overloads: 3 });
      // A resumed run: the widest range, the last final value, the overloads of both attempts.
      await recordRunPace(connection, run, { min: 2, max: 24, final: 20, overloads: 5 });
      expect((await read())[1]).toEqual({
        run_id: "2",
        concurrency_min: 2,
        concurrency_max: 32,
        concurrency_final: 20,
        overload_answers: "8",
      });
    } finally {
      connection.closeSync();
      db.close();
    }
  });
});
