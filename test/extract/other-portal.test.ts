/**
 * A database holds one portal's records: a run against another address may replace them all,
 * but never add to them. Two simulated portals with the same ids (the same seed, other data), over
 * real HTTP, into one real database file.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { type LmsDatabase, openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { closedPort } from "../helpers/closed-port.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { expectTablesEqualPortal, normaliseTable } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "other-portal-key-5d1e";
const NOW = new Date("2026-06-01T00:00:00Z");
const dir = tempDirForFile("lms-other-portal-");

let a: RunningSimulator;
let b: RunningSimulator;
beforeAll(async () => {
  const size = { users: 60, takesPerUser: 2, now: NOW, apiKey: KEY, seed: 31 };
  a = await startSimulator({ ...size, faults: { latencyMs: 2 } });
  b = await startSimulator({ ...size, users: 70, faults: { latencyMs: 2 } });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const client = (baseUrl: string) => ({ baseUrl, apiKey: KEY, concurrency: 2, pageSize: 10 });

/** Every table's rows and the runs recorded: what a refused run must leave as it was. */
async function snapshot(db: LmsDatabase) {
  const connection = await db.connect();
  try {
    const tables = [];
    for (const table of ["grp", "user_grp", "product_access", "take"] as const) {
      tables.push(await normaliseTable(connection, table));
    }
    const runs = (await connection.runAndReadAll("SELECT run_id, status FROM _runs")).getRows();
    return { tables, runs };
  } finally {
    connection.closeSync();
  }
}

/** A database `name` in the test folder holding a full run of portal `a`. */
async function extractedFromA(name: string): Promise<LmsDatabase> {
  const db = await openDatabase(join(dir, name));
  try {
    await runExtract({ db, clientOptions: client(a.baseUrl), mode: "full", logger: silentLogger });
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

async function expectEqualPortal(db: LmsDatabase, portal: RunningSimulator) {
  const connection = await db.connect();
  try {
    await expectTablesEqualPortal(connection, portal.data);
  } finally {
    connection.closeSync();
  }
}

describe("a run against another portal's address", () => {
  it("is refused for an incremental run or some resources, and allowed whole, with a warning", async () => {
    const db = await extractedFromA("mixed.duckdb");
    try {
      const before = await snapshot(db);
      const other = { db, clientOptions: client(b.baseUrl), logger: silentLogger };
      await expect(runExtract({ ...other, mode: "incremental" })).rejects.toMatchObject({
        code: "bad-input",
        message: `the database holds the records of ${a.baseUrl} (run 1), not ${b.baseUrl}: an incremental run would mix two portals' records; give this portal its own --db, or run a full extract of every resource to replace them`,
      });
      await expect(runExtract({ ...other, mode: "full", only: ["grp"] })).rejects.toThrow(
        /a run of only some resources would mix two portals' records/,
      );
      expect(await snapshot(db)).toEqual(before);

      // The same address written otherwise is the same portal.
      const same = `${a.baseUrl}/`;
      await runExtract({
        db,
        clientOptions: client(same),
        mode: "incremental",
        logger: silentLogger,
      });

      const lines: string[] = [];
      await runExtract({ ...other, mode: "full", logger: recordingLogger(lines) });
      expect(lines).toContain(
        `warn the database holds the records of ${same} (run 2); if this full run succeeds, it replaces them with those of ${b.baseUrl}`,
      );
      await expectEqualPortal(db, b);
    } finally {
      db.close();
    }
  });

  it("warns of the replacement as what a run that succeeds does, and one that fails changes nothing", async () => {
    const db = await extractedFromA("unreachable.duckdb");
    try {
      const before = await snapshot(db);
      const nowhere = `http://127.0.0.1:${await closedPort()}/api-v2`;
      const lines: string[] = [];
      await expect(
        runExtract({
          db,
          clientOptions: { ...client(nowhere), maxAttempts: 1 },
          mode: "full",
          logger: recordingLogger(lines),
        }),
      ).rejects.toThrow(/ECONNREFUSED.*the database is unchanged/);
      expect(lines).toContain(
        `warn the database holds the records of ${a.baseUrl} (run 1); if this full run succeeds, it replaces them with those of ${nowhere}`,
      );
      expect(lines.join("\n")).not.toContain("this full run replaces them");
      expect(await snapshot(db)).toEqual(before);
    } finally {
      db.close();
    }
  });

  it("is refused for --resume of a run made from another address, which then resumes from its own", async () => {
    const db = await openDatabase(join(dir, "resume.duckdb"));
    try {
      const controller = new AbortController();
      const start = a.stats.requests;
      const timer = setInterval(() => {
        if (a.stats.requests - start > 20) controller.abort();
      }, 1);
      await expect(
        runExtract({
          db,
          clientOptions: client(a.baseUrl),
          mode: "full",
          logger: silentLogger,
          signal: controller.signal,
        }),
      ).rejects.toThrow(/interrupted.*--resume/);
      clearInterval(timer);
      const before = await snapshot(db);
      const resume = { db, mode: "full" as const, logger: silentLogger, resume: true };
      await expect(runExtract({ ...resume, clientOptions: client(b.baseUrl) })).rejects.toThrow(
        `run 1 was extracted from ${a.baseUrl}, not ${b.baseUrl}: resuming it would mix two portals' records; run without --resume to start over from ${b.baseUrl}, or resume with --base-url ${a.baseUrl}`,
      );
      expect(await snapshot(db)).toEqual(before);
      const resumed = await runExtract({ ...resume, clientOptions: client(a.baseUrl) });
      expect(resumed.runId).toBe(1);
      await expectEqualPortal(db, a);
    } finally {
      db.close();
    }
  });
});
