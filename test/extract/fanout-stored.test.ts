/**
 * Records fetched by fan-out that no list of the run names any more. The portal lists no users and
 * no availability groups: a take is found through its user's links and accesses, an availability
 * group through the availabilities naming it. So:
 * - a full run deleted the takes of a user who had left every group, and an availability group no
 *   availability named, though the portal still had them (exit 0, no word);
 * - an incremental run listed a user new to the database (a link made since) with its cursor, so
 *   the user's older takes were never loaded.
 * Real HTTP to the simulator, a real DuckDB file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { type LmsDatabase, openDatabase } from "../../src/load/database.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { leaveEverything } from "./leave-everything.js";

const KEY = "fanout-stored-key";
const NOW = new Date("2026-06-01T00:00:00Z");
const dir = tempDirForFile("lms-fanout-stored-");

const extract = (sim: RunningSimulator, db: LmsDatabase, mode: "full" | "incremental") =>
  runExtract({
    db,
    clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 4, pageSize: 20 },
    mode,
    logger: recordingLogger([]),
  });

async function ids(db: LmsDatabase, sql: string): Promise<number[]> {
  const connection = await db.connect();
  try {
    const rows = (await connection.runAndReadAll(sql)).getRows();
    return rows.map((row) => Number(row[0])).sort((a, b) => a - b);
  } finally {
    connection.closeSync();
  }
}

/** A user of the portal with at least two takes, and their take ids. */
function userWithTakes(sim: RunningSimulator): { user: number; takes: number[] } {
  for (const user of sim.data.userIds()) {
    const takes = sim.data.takesForUser(user).map((t) => t.take_id);
    if (takes.length >= 2) return { user, takes: takes.sort((a, b) => a - b) };
  }
  throw new Error("no user with two takes");
}

describe("fan-out records no list names any more", () => {
  it("a full run keeps what the portal still has, and drops what it has not", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 60,
      takesPerUser: 3,
      now: NOW,
      seed: 31,
    });
    const db = await openDatabase(join(dir, "full.duckdb"));
    try {
      await extract(sim, db, "full");
      const { user, takes } = userWithTakes(sim);
      leaveEverything(sim, user);
      // One of the user's takes is gone from the portal too: the run asks, and drops it.
      const [gone] = sim.data.remove("take", 1, user);
      const kept = takes.filter((take) => take !== gone);
      expect(kept.length).toBe(takes.length - 1);
      const targeted = sim.data
        .list("svc_availability")
        .filter((a) => a.svc_availability_target_type === "availability_group");
      const group = targeted[0]?.svc_availability_target_id as number;
      for (const a of targeted.filter((t) => t.svc_availability_target_id === group)) {
        sim.data.removeKey("svc_availability", a.svc_availability_id);
      }
      const linksLeft = await ids(db, "SELECT count(*) FROM user_grp");

      await extract(sim, db, "full");
      expect(await ids(db, `SELECT take_id FROM take WHERE take_user_id = ${user}`)).toEqual(kept);
      expect(
        await ids(
          db,
          `SELECT availability_group_id FROM availability_group WHERE availability_group_id = ${group}`,
        ),
      ).toEqual([group]);
      // The lists' own removals are still applied.
      expect(
        await ids(db, `SELECT count(*) FROM user_grp WHERE user_grp_user_id = ${user}`),
      ).toEqual([0]);
      expect((await ids(db, "SELECT count(*) FROM user_grp"))[0]).toBeLessThan(
        linksLeft[0] as number,
      );
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("an incremental run lists a user new to the database whole, older takes included", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 60,
      takesPerUser: 3,
      now: NOW,
      seed: 32,
    });
    const db = await openDatabase(join(dir, "incremental.duckdb"));
    try {
      const { user, takes } = userWithTakes(sim);
      // Unknown to the first run: no link or access names the user.
      leaveEverything(sim, user);
      await extract(sim, db, "full");
      expect(await ids(db, `SELECT take_id FROM take WHERE take_user_id = ${user}`)).toEqual([]);

      const group = sim.data.list("grp")[0]?.grp_id as number;
      sim.data.createUserGroup({
        user_grp_grp_id: group,
        user_grp_user_id: user,
        user_grp_group_admin: 0,
      });
      await extract(sim, db, "incremental");
      expect(await ids(db, `SELECT take_id FROM take WHERE take_user_id = ${user}`)).toEqual(takes);
    } finally {
      db.close();
      await sim.close();
    }
  });
});
