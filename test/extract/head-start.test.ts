/**
 * A new full run asks for its lists while its storage is made ready. With the database held by a
 * reader in another process: a new full run's list requests reach the portal before it can write
 * the run down, and it ends with the portal's records; an incremental run waits for the database
 * before it asks; and a run whose database stays locked reports the lock, stops asking, and
 * writes nothing. Real HTTP to the simulator, real DuckDB files, a real second process.
 */
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LmsExportError } from "../../src/errors/lms-export-error.js";
import { type RunExtractOptions, runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { expectTablesEqualPortal } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { kill, spawnHelper, waitForLine } from "../load/helpers/child-process.js";

const KEY = "head-start-key-7c2d";
const NOW = new Date("2026-06-01T00:00:00Z");

const dir = tempDirForFile("lms-head-start-");
let sim: RunningSimulator;
let db: string;
let reader: ChildProcess | undefined;

beforeEach(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 40, takesPerUser: 2, now: NOW, seed: 31 });
  db = join(dir, `db-${Math.random().toString(36).slice(2)}.duckdb`);
});
afterEach(async () => {
  if (reader) await kill(reader);
  reader = undefined;
  await sim.close();
});

function options(extra: Partial<RunExtractOptions> = {}): RunExtractOptions {
  return {
    db,
    clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4, pageSize: 20 },
    mode: "full",
    logger: silentLogger,
    waitSeconds: 30,
    ...extra,
  };
}

/** List requests the portal has answered so far. */
function listRequests(): number {
  let count = 0;
  for (const [operation, n] of sim.stats.byOperation) if (/get_all/.test(operation)) count += n;
  return count;
}

/** A child process holding `path` open read-only, as a report does. */
async function holdDatabase(path: string): Promise<void> {
  reader = spawnHelper("hold-lock.mjs", [path, "read-only"]);
  await waitForLine(reader, "ready");
}

async function release(): Promise<void> {
  if (reader) await kill(reader);
  reader = undefined;
}

/** Resolves once `check` holds, polling; rejects after `seconds`. */
async function until(check: () => boolean, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every extracted table of the database equals what the simulated portal holds. */
async function expectDatabaseEqualsPortal(): Promise<void> {
  const stored = await openDatabase(db);
  const connection = await stored.connect();
  try {
    await expectTablesEqualPortal(connection, sim.data);
  } finally {
    connection.closeSync();
    stored.close();
  }
}

/** Interrupts `run` as Ctrl-C does, lets the reader go, and answers the run's failure. */
async function interruptThenRelease(
  stop: AbortController,
  run: Promise<unknown>,
): Promise<LmsExportError> {
  stop.abort(new LmsExportError("interrupted", "interrupted"));
  const failure = await run.then(
    () => undefined,
    (error: unknown) => error,
  );
  await release();
  expect(failure).toBeInstanceOf(LmsExportError);
  expect((failure as LmsExportError).code).toBe("interrupted");
  return failure as LmsExportError;
}

describe("a run's head start", () => {
  it("a new full run lists while the database is held, then stores what the portal has", async () => {
    await runExtract(options());
    await holdDatabase(db);
    const before = listRequests();
    const run = runExtract(options());
    // The run cannot write itself down while the reader holds the file; its lists go out anyway.
    await until(() => listRequests() > before, 10);
    await release();
    const result = await run;
    expect(result.runId).toBe(2);
    await expectDatabaseEqualsPortal();
    expect(await readRows(db, "SELECT run_id, status FROM _runs ORDER BY run_id")).toEqual([
      [1n, "succeeded"],
      [2n, "succeeded"],
    ]);
  });

  it("an incremental run waits for the database before it lists", async () => {
    await runExtract(options());
    await holdDatabase(db);
    const before = listRequests();
    const run = runExtract(options({ mode: "incremental" }));
    // Its cursors are in the database: nothing can be asked for before it is read.
    await until(() => sim.stats.byOperation.get("token") === 2, 10);
    await pause(500);
    expect(listRequests()).toBe(before);
    await release();
    const result = await run;
    expect(result.mode).toBe("incremental");
    expect(listRequests()).toBeGreaterThan(before);
  });

  it("a run whose database stays locked reports the lock, stops asking and writes nothing", async () => {
    await runExtract(options());
    await holdDatabase(db);
    const before = listRequests();
    const failure = await runExtract(options({ waitSeconds: 1 })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(LmsExportError);
    expect((failure as LmsExportError).code).toBe("locked");
    // It had started listing, and stopped with the failure.
    const atFailure = listRequests();
    expect(atFailure).toBeGreaterThan(before);
    await pause(300);
    expect(listRequests()).toBe(atFailure);
    await release();
    expect(await readRows(db, "SELECT run_id, status FROM _runs")).toEqual([[1n, "succeeded"]]);
  });

  it("a run that lists before it is written down counts its start from before its first request", async () => {
    await runExtract(options());
    await holdDatabase(db);
    const groupPages = () => sim.stats.byOperation.get("grp/get_all") ?? 0;
    const pages = groupPages();
    const run = runExtract(options());
    await until(() => groupPages() >= 2 * pages, 10);
    // Edited after the run listed groups, while it waits to write itself down: the next
    // incremental run must read the edit. Portal dates have whole seconds, hence the pause.
    const group = sim.data.list("grp")[0]!;
    sim.data.edit("grp", group.grp_id, { grp_description: "edited while the run waited" });
    await pause(1500);
    await release();
    await run;
    await runExtract(options({ mode: "incremental", lookbackMs: 1000 }));
    expect(
      await readRows(db, `SELECT grp_description FROM grp WHERE grp_id = ${group.grp_id}`),
    ).toEqual([["edited while the run waited"]]);
  });

  it("a run asks for nothing while another extract holds the side file", async () => {
    await runExtract(options());
    reader = spawnHelper("hold-lock.mjs", [`${db}.staging`]);
    await waitForLine(reader, "ready");
    const before = listRequests();
    const run = runExtract(options());
    // The key is checked meanwhile; the lists wait for the side file.
    await until(() => sim.stats.byOperation.get("token") === 2, 10);
    await pause(500);
    expect(listRequests()).toBe(before);
    await release();
    await run;
    expect(listRequests()).toBeGreaterThan(before);
  });

  it("a fetch that fails while the database is held ends the run with its own error", async () => {
    await runExtract(options());
    await sim.close();
    sim = await startSimulator({
      apiKey: KEY,
      users: 40,
      takesPerUser: 2,
      now: NOW,
      seed: 31,
      forbidden: ["grp/get_all"],
    });
    await holdDatabase(db);
    // Without the failure ending the wait, the run would wait out the lock and report it.
    const failure = await runExtract(options({ waitSeconds: 120 })).then(
      () => undefined,
      (error: unknown) => error,
    );
    await release();
    expect(failure).toBeInstanceOf(LmsExportError);
    expect((failure as LmsExportError).code).not.toBe("locked");
    expect((failure as LmsExportError).message).toContain("403");
    expect(await readRows(db, "SELECT run_id, status FROM _runs")).toEqual([[1n, "succeeded"]]);
  });

  it("an interruption while a run waits for the database is reported as one", async () => {
    await runExtract(options());
    await holdDatabase(db);
    const stop = new AbortController();
    const run = runExtract(options({ mode: "incremental", signal: stop.signal }));
    await until(() => sim.stats.byOperation.get("token") === 2, 10);
    await pause(200);
    await interruptThenRelease(stop, run);
  });
});

describe("waiting for the database", () => {
  it("an incremental run with a refused key reports the key, not the reader it waits for", async () => {
    await runExtract(options());
    await holdDatabase(db);
    const wrong = options({ mode: "incremental", waitSeconds: 120 });
    // Without the refusal ending the wait, the run would wait out the reader and report the lock.
    const failure = await runExtract({
      ...wrong,
      clientOptions: { ...wrong.clientOptions, apiKey: "not-the-key" },
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await release();
    expect(failure).toBeInstanceOf(LmsExportError);
    expect((failure as LmsExportError).code).toBe("auth-refused");
  });

  it("an interruption while the merge waits for a reader says how to go on, and resuming does", async () => {
    await runExtract(options());
    // Slow answers: the run is still fetching when the reader takes the database.
    sim.faults.latencyMs = 100;
    const lines: string[] = [];
    const stop = new AbortController();
    const before = listRequests();
    // An incremental run writes itself down before its first request.
    const run = runExtract(
      options({ mode: "incremental", signal: stop.signal, logger: recordingLogger(lines) }),
    );
    await until(() => listRequests() > before, 10);
    await holdDatabase(db);
    await until(() => lines.some((line) => line.includes("waiting for it")), 60);
    const failure = await interruptThenRelease(stop, run);
    expect(failure.message).toContain("--resume");
    sim.faults.latencyMs = 0;
    const resumed = await runExtract(options({ mode: "incremental", resume: true }));
    expect(resumed.runId).toBe(2);
    await expectDatabaseEqualsPortal();
  });
});
