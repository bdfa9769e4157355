import type { DuckDBConnection } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { toRecordBatch } from "../../src/encode/to-record-batch.js";
import { stagingWriter } from "../../src/load/append-batch.js";
import { clearCheckpoints, doneKeys, markDone } from "../../src/load/checkpoint.js";
import {
  finishRun,
  lastLoadedByResource,
  recordDrift,
  recordNotFound,
  recordRejects,
  recordResourceStats,
  reopenRun,
  resumableRun,
  startRun,
} from "../../src/load/runs.js";
import { clearSide } from "../../src/load/side-file.js";
import { memory } from "./helpers/memory-db.js";

async function rows(connection: DuckDBConnection, sql: string) {
  return (await connection.runAndReadAll(sql)).getRowObjectsJson();
}

describe("runs", () => {
  it("starts, finishes and reopens runs with increasing ids", async () => {
    const connection = await memory();
    const since = new Date("2026-03-01T12:34:56Z");
    const first = await startRun(connection, {
      mode: "incremental",
      since,
      options: { concurrency: 8, only: ["grp"], apiKey: "s3cret", token: "t0k", apiKeyFile: "/k" },
    });
    const second = await startRun(connection, { mode: "full", since: null, options: {} });
    expect([first, second]).toEqual([1, 2]);
    await finishRun(connection, first, "failed", "boom: one line");
    const [run] = await rows(
      connection,
      "SELECT status, mode, strftime(since, '%Y-%m-%dT%H:%M:%S') AS since, options, error, finished_at IS NOT NULL AS finished FROM _runs WHERE run_id = 1",
    );
    expect(run).toEqual({
      status: "failed",
      mode: "incremental",
      since: "2026-03-01T12:34:56",
      options: '{"concurrency":8,"only":["grp"],"apiKeyFile":"/k"}',
      error: "boom: one line",
      finished: true,
    });
    expect(JSON.stringify(await rows(connection, "SELECT * FROM _runs"))).not.toMatch(/s3cret|t0k/);
    await reopenRun(connection, first);
    expect(
      await rows(connection, "SELECT status, error, finished_at FROM _runs WHERE run_id = 1"),
    ).toEqual([{ status: "running", error: null, finished_at: null }]);
  });

  it("lastLoadedByResource answers, per resource, the start of the latest succeeded run that loaded it", async () => {
    const connection = await memory();
    expect((await lastLoadedByResource(connection)).size).toBe(0);
    const t0 = Date.now();
    const stats = { records: 1, requests: 1, retries: 0, rejects: 0, notFound: 0, durationMs: 1 };
    const a = await startRun(connection, { mode: "full", since: null, options: {} });
    await recordResourceStats(
      connection,
      a,
      new Map([
        ["grp", stats],
        ["take", stats],
      ]),
    );
    await finishRun(connection, a, "succeeded");
    const b = await startRun(connection, { mode: "full", since: null, options: {} });
    await recordResourceStats(connection, b, new Map([["grp", stats]]));
    await finishRun(connection, b, "failed", "x");
    const loaded = await lastLoadedByResource(connection);
    expect([...loaded.keys()].sort()).toEqual(["grp", "take"]);
    expect(loaded.get("grp")).toBeInstanceOf(Date);
    expect(loaded.get("grp")?.getTime()).toBe(loaded.get("take")?.getTime());
    expect(Math.abs((loaded.get("grp")?.getTime() ?? 0) - t0)).toBeLessThan(60_000);
  });

  it("stores resource stats (replacing on resume), rejects, drift once, not-found ids once", async () => {
    const connection = await memory();
    const run = await startRun(connection, { mode: "full", since: null, options: {} });
    const stats = {
      records: 10,
      requests: 3,
      retries: 1,
      rejects: 2,
      notFound: 1,
      durationMs: 1234.6,
    };
    await recordResourceStats(connection, run, new Map([["take", stats]]));
    await recordResourceStats(connection, run, new Map([["take", { ...stats, records: 12 }]]));
    expect(await rows(connection, "SELECT * FROM _run_resources")).toEqual([
      {
        run_id: "1",
        resource: "take",
        records: "12",
        requests: "3",
        retries: "1",
        rejects: "2",
        not_found: "1",
        duration_ms: "1235",
      },
    ]);

    const { rejects, drift } = toRecordBatch("take", [
      { take_id: 1.5, text: "ünï" },
      "junk",
      { take_id: 2, surprise: { a: [1] } },
    ]);
    await recordRejects(connection, run, "take", rejects);
    expect(await rows(connection, "SELECT raw, reason FROM _rejects ORDER BY reason")).toEqual([
      {
        raw: '{"take_id":1.5,"text":"ünï"}',
        reason: 'field "take_id": expected an integer, got 1.5',
      },
      { raw: '"junk"', reason: "record is not a JSON object" },
    ]);

    await recordDrift(connection, run, "take", drift);
    await recordDrift(
      connection,
      run,
      "take",
      new Map([
        ["surprise", 2],
        ["later", null],
      ]),
    );
    expect(
      await rows(connection, "SELECT field, example FROM _schema_drift ORDER BY field"),
    ).toEqual([
      { field: "later", example: "null" },
      { field: "surprise", example: '{"a":[1]}' },
      // Drift is reported from every record the portal sent, rejected ones included.
      { field: "text", example: '"ünï"' },
    ]);

    await recordNotFound(connection, run, "product", [7, "8", 7]);
    await recordNotFound(connection, run, "product", [8, 9]);
    await recordNotFound(connection, run, "product", []);
    expect(await rows(connection, "SELECT id FROM _not_found ORDER BY id")).toEqual([
      { id: "7" },
      { id: "8" },
      { id: "9" },
    ]);
  });

  it("resumableRun: only the latest unsucceeded run that left staging or checkpoints", async () => {
    const connection = await memory();
    expect(await resumableRun(connection, "memory")).toBeNull();
    const since = new Date("2026-02-01T00:00:00Z");
    const run = await startRun(connection, {
      mode: "incremental",
      since,
      options: { resources: ["grp", "take"], pageSize: 500 },
    });
    // Nothing staged or checkpointed yet: nothing to resume.
    expect(await resumableRun(connection, "memory")).toBeNull();

    await markDone(connection, run, "grp", "page", ["0"]);
    expect(await resumableRun(connection, "memory")).toEqual({
      runId: run,
      mode: "incremental",
      since,
      options: { resources: ["grp", "take"], pageSize: 500 },
    });
    await finishRun(connection, run, "interrupted", "SIGINT");
    expect((await resumableRun(connection, "memory"))?.runId).toBe(run);

    // Staged rows alone also make a run resumable.
    await clearCheckpoints(connection, run);
    expect(await resumableRun(connection, "memory")).toBeNull();
    const { batch } = toRecordBatch("take", [{ take_id: 1 }]);
    const writer = await stagingWriter(connection, "take");
    if (batch) await writer.append(batch);
    await writer.close();
    expect((await resumableRun(connection, "memory"))?.runId).toBe(run);

    // A later successful run supersedes it.
    await clearSide(connection);
    const next = await startRun(connection, { mode: "full", since: null, options: {} });
    await markDone(connection, next, "grp", "page", ["0"]);
    await finishRun(connection, next, "succeeded");
    expect(await resumableRun(connection, "memory")).toBeNull();
  });
});

describe("checkpoints", () => {
  it("round-trips keys per run, resource and kind, idempotently", async () => {
    const connection = await memory();
    expect(await doneKeys(connection, 1, "take", "parent")).toEqual(new Set());
    await markDone(connection, 1, "take", "parent", ["10", "11", "10"]);
    await markDone(connection, 1, "take", "parent", ["11", "12"]);
    await markDone(connection, 1, "take", "parent", []);
    await markDone(connection, 1, "grp", "page", ["0", "500"]);
    await markDone(connection, 2, "take", "parent", ["99"]);
    await markDone(connection, 1, "product", "lookup", ["7", "é'; DROP TABLE _runs; --"]);
    expect(await doneKeys(connection, 1, "take", "parent")).toEqual(new Set(["10", "11", "12"]));
    expect(await doneKeys(connection, 1, "grp", "page")).toEqual(new Set(["0", "500"]));
    expect(await doneKeys(connection, 1, "grp", "parent")).toEqual(new Set());
    expect(await doneKeys(connection, 2, "take", "parent")).toEqual(new Set(["99"]));
    expect(await doneKeys(connection, 1, "product", "lookup")).toEqual(
      new Set(["7", "é'; DROP TABLE _runs; --"]),
    );
    await clearCheckpoints(connection, 1);
    expect(await doneKeys(connection, 1, "take", "parent")).toEqual(new Set());
    expect(await doneKeys(connection, 2, "take", "parent")).toEqual(new Set(["99"]));
    await clearCheckpoints(connection);
    expect(await doneKeys(connection, 2, "take", "parent")).toEqual(new Set());
  });
});
