import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { RUN_PACE_COLUMNS } from "../../src/load/meta-ddl.js";
import { RUN_PACE_TABLE_SQL, savePace } from "../../src/load/pace-journal.js";
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
      // The run's side file, as an extract holds it (src/load/side-file.ts).
      await connection.run("ATTACH ':memory:' AS side");
      await connection.run("USE side");
      await connection.run(RUN_PACE_TABLE_SQL);
      await connection.run("USE old");
      const run = await startRun(connection, { mode: "full", since: null, options: {} });
      const save = async (attempt: string, pace: typeof first) => {
        await connection.run("USE side");
        await savePace(connection, run, attempt, pace);
        await connection.run("USE old");
      };
      // An attempt that failed: recorded in _runs, and saved in the side file for the resume.
      const first = { min: 4, max: 32, final: 16, overloads: 3 };
      await save("a", first);
      await recordRunPace(connection, "side", run, { attempt: "a", pace: first });
      // An attempt killed outright: only what its commits saved, twice, the count growing.
      await save("k", { min: 8, max: 40, final: 40, overloads: 2 });
      await save("k", { min: 3, max: 40, final: 30, overloads: 6 });
      // The resumed run: the widest range, the last final value, the overloads of all three.
      const last = { attempt: "b", pace: { min: 2, max: 24, final: 20, overloads: 5 } };
      await recordRunPace(connection, "side", run, last);
      const whole = {
        run_id: "2",
        concurrency_min: 2,
        concurrency_max: 40,
        concurrency_final: 20,
        overload_answers: "14",
      };
      expect((await read())[1]).toEqual(whole);
      // Recorded twice (a merge that failed after it, then recorded as failed): the same.
      await recordRunPace(connection, "side", run, last);
      expect((await read())[1]).toEqual(whole);
    } finally {
      connection.closeSync();
      db.close();
    }
  });
});
