/**
 * A run stopped while it read users' takes, then resumed: a user's takes are staged in one piece
 * with the mark that the user is done, so the resumed run reads again whole every user it had not
 * finished and keeps every take of the users it had. Telling afterwards which staged takes
 * belonged to an unfinished user rested on each take naming the user it was listed for, and a
 * portal whose take names another user (an account merged into another, say) lost it. Real HTTP
 * to the simulator through a proxy that rewrites answers, a real DuckDB file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { type Logger, silentLogger } from "../../src/log/logger.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { expectTablesEqualPortal, normaliseTable } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { forwardingPortal } from "./forwarding-portal.js";

const KEY = "resume-children-key";
const NOW = new Date("2026-06-01T00:00:00Z");
const dir = tempDirForFile("lms-resume-children-");

/** The user whose takes `path` lists, or undefined for another request. */
function takesUser(path: string): number | undefined {
  const match = /\/take\/get_all_for_user\/(\d+)/.exec(path);
  return match ? Number(match[1]) : undefined;
}

/** How many takes listings' pages the portal was asked for. */
const takesPages = (portal: { paths: string[] }) =>
  portal.paths.filter((path) => takesUser(path) !== undefined).length;

/**
 * An extract through `baseUrl` with pages of `pageSize` (10 unless said), stopped through its
 * signal once `when` holds, then resumed after `meanwhile`.
 */
async function stoppedThenResumed(
  file: string,
  portal: { baseUrl: string },
  stop: { when: () => boolean; logger?: Logger; pageSize?: number },
  meanwhile: () => void = () => {},
) {
  const db = await openDatabase(join(dir, file));
  const clientOptions = {
    baseUrl: portal.baseUrl,
    apiKey: KEY,
    concurrency: 2,
    pageSize: stop.pageSize ?? 10,
  };
  const controller = new AbortController();
  const watch = setInterval(() => {
    if (stop.when()) controller.abort();
  }, 1);
  const logger = stop.logger ?? silentLogger;
  try {
    await expect(
      runExtract({ db, clientOptions, mode: "full", logger, signal: controller.signal }),
    ).rejects.toThrow(/interrupted/);
  } finally {
    clearInterval(watch);
  }
  meanwhile();
  await runExtract({ db, clientOptions, mode: "full", logger: silentLogger, resume: true });
  return db;
}

/** Removes every other take of `user` from the portal. */
function removeHalfOf(sim: RunningSimulator, user: number): void {
  const takes = sim.data.takesForUser(user).map((take) => Number(take.take_id));
  for (const id of takes.filter((_, i) => i % 2 === 0)) sim.data.removeKey("take", id);
}

/** Runs `check` on the resumed database, then closes it, the proxy and the simulator. */
async function checked(
  db: Awaited<ReturnType<typeof openDatabase>>,
  servers: { close(): Promise<void> }[],
  check: (connection: Awaited<ReturnType<typeof db.connect>>) => Promise<void>,
): Promise<void> {
  try {
    const connection = await db.connect();
    await check(connection);
    connection.closeSync();
  } finally {
    db.close();
    for (const server of servers) await server.close();
  }
}

describe("extract --resume after a stop among users' takes", () => {
  it("keeps the takes of users read before the stop that name a user the portal does not list", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 60,
      takesPerUser: 2,
      seed: 41,
      now: NOW,
      faults: { latencyMs: 3 },
    });
    // Each user's first take names user 999999, whose takes are never listed.
    const portal = await forwardingPortal(sim, {
      answer: (path, text) => {
        if (takesUser(path) === undefined) return text;
        const answer = JSON.parse(text) as { result: { take_user_id: number }[] };
        const first = answer.result[0];
        if (first === undefined) return text;
        first.take_user_id = 999_999;
        return JSON.stringify(answer);
      },
    });
    const db = await stoppedThenResumed("other-user.duckdb", portal, {
      when: () => takesPages(portal) >= 30,
    });
    await checked(db, [portal, sim], async (connection) => {
      const takes = await normaliseTable(connection, "take");
      const portalIds = sim.data.list("take").map((take) => Number(take.take_id));
      expect([...takes.keys()].sort((a, b) => a - b)).toEqual(portalIds.sort((a, b) => a - b));
      const renamed = [...takes.values()].filter((take) => take.take_user_id === 999_999);
      expect(renamed.length).toBeGreaterThan(20);
    });
  });

  it("stores none of the takes the portal removed from a user half read at the stop", async () => {
    // 25 takes a user on pages of 10: a stopped run is in the middle of a user's pages.
    const sim = await startSimulator({
      apiKey: KEY,
      users: 30,
      takesPerUser: 25,
      seed: 43,
      now: NOW,
      faults: { latencyMs: 3 },
    });
    // The first record each takes page asked for, by user.
    const asked = new Map<number, number[]>();
    const portal = await forwardingPortal(sim, {
      before: async (path, body) => {
        const user = takesUser(path);
        if (user === undefined) return;
        const { start } = JSON.parse(body) as { start: number };
        asked.set(user, [...(asked.get(user) ?? []), start]);
      },
    });
    // Before the resume, every other take is removed from each user the stopped run had begun and
    // surely not finished: one with more than a page of takes whose page one was asked for once
    // (a listing of several pages ends by asking for page one again, to see the order held). A
    // take removed from a user it had finished stays, as it would had the run ended then.
    const removeHalf = () => {
      const unfinished = [...asked].filter(
        ([user, starts]) =>
          sim.data.takesForUser(user).length > 10 && starts.filter((s) => s === 0).length === 1,
      );
      expect(unfinished.length).toBeGreaterThan(0);
      for (const [user] of unfinished) removeHalfOf(sim, user);
    };
    const stop = { when: () => takesPages(portal) >= 14 };
    const db = await stoppedThenResumed("half-read.duckdb", portal, stop, removeHalf);
    await checked(db, [portal, sim], (connection) => expectTablesEqualPortal(connection, sim.data));
  });

  it("stores none of the takes removed from a user with too many to hold, half read at the stop", async () => {
    // One user with 12,033 takes: more than are held, so they are staged as they come.
    const sim = await startSimulator({
      apiKey: KEY,
      users: 1,
      takesPerUser: 12_000,
      seed: 47,
      now: NOW,
      faults: { latencyMs: 3 },
    });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The last page of the user's takes is held back until the run has stopped, so that its
    // listing cannot end before.
    const portal = await forwardingPortal(sim, {
      before: async (path, body) => {
        if (takesUser(path) === undefined) return;
        if ((JSON.parse(body) as { start: number }).start >= 11_000) await released;
      },
    });
    let streaming = false;
    const logger = {
      ...silentLogger,
      info: (message: string) => {
        if (message.includes("staged as they come")) streaming = true;
      },
    };
    const [user] = sim.data.userIds();
    const db = await stoppedThenResumed(
      "too-many.duckdb",
      portal,
      { when: () => streaming, logger, pageSize: 1000 },
      () => {
        release();
        removeHalfOf(sim, user as number);
      },
    );
    await checked(db, [portal, sim], (connection) => expectTablesEqualPortal(connection, sim.data));
  });
});
