/**
 * A full extract attaches the database only to write its run down and to merge: while it pages,
 * another process may hold the database (an `apply` writing it), and the extract fetches on. It
 * used to attach the database for a moment after each list and before the fan-out of stored ids,
 * so an `apply` that opened it then was refused, and one holding it kept the extract from paging.
 * Real HTTP to the simulator (through a portal that holds one answer, so the moment is caught
 * without timing), a real DuckDB file held by another process.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import type { Logger } from "../../src/log/logger.js";
import { startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { lockDatabase } from "./database-locker.js";
import { heldPortal } from "./held-portal.js";
import { leaveEverything } from "./leave-everything.js";

const KEY = "free-while-paging-key";
const dir = tempDirForFile("lms-free-while-paging-");

/** A logger whose promise resolves at the first line saying the run waits for the database. */
function waitWatcher(): { logger: Logger; waiting: Promise<void> } {
  let seen = () => {};
  const waiting = new Promise<void>((resolve) => {
    seen = resolve;
  });
  const log = (message: string) => {
    if (message.includes("waiting for it")) seen();
  };
  return { logger: { debug: log, info: log, warn: log, error: log }, waiting };
}

it("a full run fetches everything, stored users' takes included, while another process holds the database, and waits only to merge", async () => {
  const sim = await startSimulator({ apiKey: KEY, users: 60, takesPerUser: 3, seed: 31 });
  const db = join(dir, "free.duckdb");
  const clientOptions = { apiKey: KEY, concurrency: 4, pageSize: 20 };
  const watcher = waitWatcher();
  // A user who left every group: their takes are asked for only from the database's ids, after
  // the links are listed and confirmed.
  let portal: Awaited<ReturnType<typeof heldPortal>> | undefined;
  try {
    await runExtract({
      db,
      clientOptions: { ...clientOptions, baseUrl: sim.baseUrl },
      mode: "full",
      logger: watcher.logger,
    });
    const user = sim.data
      .list("user_grp")
      .map((link) => link.user_grp_user_id)
      .find((id) => id !== null && sim.data.takesForUser(id).length > 0);
    if (typeof user !== "number") throw new Error("no user with takes");
    leaveEverything(sim, user);
    // The links' confirmation comes once the run is written down and the links are listed.
    portal = await heldPortal(
      sim,
      (path, body) => path.includes("/user_grp/get_all") && body.includes('"operator":"in"'),
    );
    const run = runExtract({
      db,
      clientOptions: { ...clientOptions, baseUrl: portal.baseUrl },
      mode: "full",
      waitSeconds: 600,
      logger: watcher.logger,
    });
    run.catch(() => undefined);
    await portal.held;
    const locker = await lockDatabase(db);
    portal.release();
    await watcher.waiting;
    const asked = portal.paths.filter((path) => path.includes(`/take/get_all_for_user/${user}`));
    await locker.release();
    const result = await run;
    // Everything was fetched before the run first needed the database again: the merge.
    expect(asked.length).toBeGreaterThan(0);
    const kept = await readRows(
      db,
      `SELECT count(*)::INTEGER FROM take WHERE take_user_id = ${user}`,
    );
    expect(kept).toEqual([[sim.data.takesForUser(user).length]]);
    expect(result.tables.take).toBe(sim.data.count("take"));
  } finally {
    await portal?.close();
    await sim.close();
  }
});
