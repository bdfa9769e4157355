/**
 * Two extracts of one database in one process: DuckDB's file lock keeps out only other
 * processes, so both runs wrote one side file and merged into one database, the second's tables
 * replacing the first's, both reported done. (Two portals of a config file naming one database are
 * refused when the file is read: test/cli/portal-shared-db.test.ts.)
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { sidePathOf } from "../../src/load/side-file.js";
import { silentLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-shared-db-");
const sims: RunningSimulator[] = [];

async function runCount(db: string): Promise<number> {
  const handle = await openDatabase(db, { readOnly: true });
  try {
    const connection = await handle.connect();
    const reader = await connection.runAndReadAll("SELECT count(*) FROM _runs");
    return Number(reader.getRowsJS()[0]![0]);
  } finally {
    handle.close();
  }
}

beforeAll(async () => {
  for (const seed of [1, 2]) sims.push(await startSimulator({ users: 20, takesPerUser: 2, seed }));
  // Slow answers: the refused run stops its key check before the portal has answered it.
  sims.push(await startSimulator({ users: 20, takesPerUser: 2, faults: { latencyMs: 200 } }));
});

afterAll(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
});

describe("one database for two extracts", () => {
  test("a second extract of a database in the same process is refused as another extract", async () => {
    const db = join(dir, "twice.duckdb");
    const clientOptions = { baseUrl: sims[0]!.baseUrl, apiKey: "demo-key", concurrency: 2 };
    const runs = await Promise.allSettled(
      [0, 1].map(() => runExtract({ db, clientOptions, mode: "full", logger: silentLogger })),
    );
    const refused = runs.filter((run) => run.status === "rejected");
    expect(refused).toHaveLength(1);
    expect(String((refused[0] as PromiseRejectedResult).reason)).toContain(
      `another extract of database ${db} is running in this process`,
    );
    expect(await runCount(db)).toBe(1);
  });

  test("the refused one of two extracts of a new database leaves the other's files alone", async () => {
    // Both start before either has made a file. The one that comes second to the side file waits
    // for it (its own extract could not use it) and is stopped while it waits; it used to remove
    // the side file (and the database) the other had made and was using, as files it made itself.
    // Which run comes first is up to the machine, so each may wait, and the one that says it
    // waits is stopped.
    const db = join(dir, "new-twice.duckdb");
    const clientOptions = { baseUrl: sims[2]!.baseUrl, apiKey: "demo-key", concurrency: 4 };
    const runs = [0, 1].map(() => {
      const lines: string[] = [];
      const stop = new AbortController();
      const options = { db, clientOptions, logger: recordingLogger(lines) };
      const run = runExtract({ ...options, mode: "full", waitSeconds: 600, signal: stop.signal });
      // Settled here too, so the one not awaited first is never an unhandled rejection.
      const settled = run.then(
        () => "done",
        (error: unknown) => String(error),
      );
      return { lines, stop, settled };
    });
    const waits = (run: (typeof runs)[number]) =>
      run.lines.some((line) => line.includes("waiting"));
    // The other holds the side file from before DuckDB has made it: both are awaited.
    let waiter = runs.find(waits);
    while (waiter === undefined || !existsSync(sidePathOf(db))) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      waiter = runs.find(waits);
    }
    const holder = runs.find((run) => run !== waiter)!;
    waiter.stop.abort();
    expect(await waiter.settled).toMatch(/interrupted/);
    // The holder pages a slow portal still: its side file is where it was.
    expect(existsSync(sidePathOf(db))).toBe(true);
    expect(await holder.settled).toBe("done");
    expect(await runCount(db)).toBe(1);
  });
});
