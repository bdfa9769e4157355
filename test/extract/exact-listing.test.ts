/**
 * Lists whose order is not stable and whose records change while they are paged: the extract
 * still ends with every record that existed for the whole run, and a full run over a complete
 * database deletes none of them. Real HTTP to the simulator, a real DuckDB file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createClient } from "../../src/api/client.js";
import { stillPresent } from "../../src/extract/confirm-gone.js";
import { type RunExtractOptions, runExtract } from "../../src/extract/extract.js";
import { type LmsDatabase, openDatabase } from "../../src/load/database.js";
import type { Logger } from "../../src/log/logger.js";
import { RESOURCES } from "../../src/resources/registry.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { expectTablesEqualPortal } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "exact-key-5b1e";
const NOW = new Date("2026-06-01T00:00:00Z");
const LISTS = ["grp", "user_grp", "product_access", "svc_availability"] as const;

const dir = tempDirForFile("lms-exact-");

function options(sim: RunningSimulator, db: LmsDatabase, logger: Logger): RunExtractOptions {
  return {
    db,
    clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 8, pageSize: 20, logger },
    mode: "full",
    logger,
  };
}

async function keysOf(db: LmsDatabase, table: string, key: string): Promise<Set<number>> {
  const connection = await db.connect();
  try {
    const reader = await connection.runAndReadAll(`SELECT ${key} FROM ${table}`);
    return new Set(reader.getRows().map((row) => Number(row[0])));
  } finally {
    connection.closeSync();
  }
}

const portalKeys = (sim: RunningSimulator, name: (typeof LISTS)[number]) =>
  new Set(
    sim.data
      .list(name)
      .map((r) => Number((r as Record<string, unknown>)[RESOURCES[name].primaryKey])),
  );

/** Per list, the keys of the records the simulator creates from now on (`insertWhilePaging`). */
function createdDuringRun(sim: RunningSimulator): (name: string) => Set<number> {
  const created = new Map<string, Set<number>>();
  const of = (name: string) => {
    const keys = created.get(name) ?? new Set<number>();
    created.set(name, keys);
    return keys;
  };
  const insert = sim.data.insert.bind(sim.data);
  sim.data.insert = (name, count, parentId) => {
    const ids = insert(name, count, parentId);
    for (const id of ids) of(name).add(id);
    return ids;
  };
  return of;
}

describe("exact listing", () => {
  it("copies every record when each page request sees the list in another order", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 200,
      takesPerUser: 2,
      now: NOW,
      seed: 21,
    });
    sim.faults.unstableOrder = true;
    const db = await openDatabase(join(dir, "unstable.duckdb"));
    const lines: string[] = [];
    try {
      await runExtract(options(sim, db, recordingLogger(lines)));
      const connection = await db.connect();
      await expectTablesEqualPortal(connection, sim.data);
      connection.closeSync();
      // It was the re-read that made it exact, and nothing was left to warn about.
      expect(lines.some((l) => l.includes("reading it again by key ranges"))).toBe(true);
      expect(lines.filter((l) => l.startsWith("warn"))).toEqual([]);
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("a full run while records come and go keeps every record that existed throughout", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 200,
      takesPerUser: 2,
      now: NOW,
      seed: 22,
    });
    const db = await openDatabase(join(dir, "churn.duckdb"));
    try {
      // A complete database first, then a full run while the portal churns.
      await runExtract(options(sim, db, recordingLogger([])));
      const before = new Map(LISTS.map((name) => [name, portalKeys(sim, name)]));
      const created = createdDuringRun(sim);
      Object.assign(sim.faults, {
        unstableOrder: true,
        insertWhilePaging: 1,
        deleteWhilePaging: 1,
      });
      await runExtract(options(sim, db, recordingLogger([])));
      Object.assign(sim.faults, {
        unstableOrder: false,
        insertWhilePaging: 0,
        deleteWhilePaging: 0,
      });
      for (const name of LISTS) {
        const start = before.get(name) as Set<number>;
        const end = portalKeys(sim, name);
        const table = await keysOf(db, name, RESOURCES[name].primaryKey);
        const survivors = [...start].filter((id) => end.has(id));
        expect(survivors.length, name).toBeGreaterThan(0);
        // Every record that existed before and after the run is in the table...
        expect(
          survivors.filter((id) => !table.has(id)),
          name,
        ).toEqual([]);
        // ...and the table holds nothing the portal never had. A record created during the run
        // and removed again before it ended may be there: the portal had it when it was listed.
        expect(
          [...table].filter((id) => !start.has(id) && !end.has(id) && !created(name).has(id)),
          name,
        ).toEqual([]);
      }
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("stores no record that the re-read of a moving list found gone", async () => {
    // Records removed while a list is paged were read on an earlier page; the re-read by key
    // ranges, one look per range, no longer holds them. The simulator changes its lists only
    // while they are paged (start > 0) and the re-read asks every range from 0, so the portal
    // stands still from the re-read on and the tables must equal it exactly.
    const sim = await startSimulator({
      apiKey: KEY,
      users: 200,
      takesPerUser: 2,
      now: NOW,
      seed: 25,
      faults: { unstableOrder: true, insertWhilePaging: 1, deleteWhilePaging: 1 },
    });
    const db = await openDatabase(join(dir, "gone-while-paging.duckdb"));
    const lines: string[] = [];
    try {
      await runExtract(options(sim, db, recordingLogger(lines)));
      for (const name of LISTS) {
        const table = await keysOf(db, name, RESOURCES[name].primaryKey);
        expect([...table].sort(), name).toEqual([...portalKeys(sim, name)].sort());
      }
      expect(lines.some((l) => l.includes("were gone when it was read again; not stored"))).toBe(
        true,
      );
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("copies every take present throughout when a user's takes change order and content per page", async () => {
    // Users with more takes than the portal's cap of 5 a page are listed in two pages. Seed 507
    // with one request at a time gives a user whose page two, in a new order after one take
    // read on page one was removed and one created, starts on the same take as page one ended
    // and brings the new one: as many keys as `total`, none twice, and take 114 on no page.
    const sim = await startSimulator({
      apiKey: KEY,
      users: 80,
      takesPerUser: 3,
      now: NOW,
      seed: 507,
      maxLimit: 5,
      faults: { unstableOrder: true, insertWhilePaging: 1, deleteWhilePaging: 1 },
    });
    const db = await openDatabase(join(dir, "takes-order.duckdb"));
    try {
      const start = new Set(sim.data.list("take").map((t) => t.take_id));
      const logger = recordingLogger([]);
      await runExtract({
        ...options(sim, db, logger),
        clientOptions: { baseUrl: sim.baseUrl, apiKey: KEY, concurrency: 1, pageSize: 5, logger },
      });
      const end = new Set(sim.data.list("take").map((t) => t.take_id));
      const table = await keysOf(db, "take", "take_id");
      const survivors = [...start].filter((id) => end.has(id));
      expect(survivors.filter((id) => !table.has(id))).toEqual([]);
      // Which records the portal removes follows the order of the run's requests, which the
      // machine's load can change (the lists are read side by side): on a loaded machine take
      // 114 was once among those removed, and the case above was not staged. What the run must
      // do holds either way; the case itself is staged when 114 survives, as it does unloaded.
      if (!survivors.includes(114)) console.warn("take 114 was removed: the case was not staged");
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("a full run asks the portal about stored records it did not list, and drops only the gone", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 60,
      takesPerUser: 1,
      now: NOW,
      seed: 23,
    });
    const db = await openDatabase(join(dir, "confirm.duckdb"));
    const lines: string[] = [];
    try {
      await runExtract(options(sim, db, recordingLogger([])));
      const groups = sim.data.list("grp").map((g) => g.grp_id);
      const gone = groups[3] as number;
      expect(sim.data.removeKey("grp", gone)).toBe(true);
      await runExtract(options(sim, db, recordingLogger(lines)));
      const table = await keysOf(db, "grp", "grp_id");
      expect(table.has(gone)).toBe(false);
      expect(table.size).toBe(groups.length - 1);
      expect(
        lines.some((l) =>
          l.includes("grp: 1 stored records were not listed; the portal still has 0"),
        ),
      ).toBe(true);
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("looks stored records up by key and answers only those the portal still has", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 60,
      takesPerUser: 1,
      now: NOW,
      seed: 24,
    });
    const client = createClient({
      baseUrl: sim.baseUrl,
      apiKey: KEY,
      concurrency: 4,
      pageSize: 20,
    });
    try {
      const access = sim.data.list("product_access").map((a) => a.product_access_id);
      const wanted = [access[0], access[5], access[7]] as number[];
      const found = await stillPresent(client, "product_access", [...wanted, 9_999_999], 2);
      const ids = found.map((r) => (r as { product_access_id: number }).product_access_id);
      expect(ids.sort((a, b) => a - b)).toEqual(wanted.sort((a, b) => a - b));
    } finally {
      await client.close();
      await sim.close();
    }
  });
});
