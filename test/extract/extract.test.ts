import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RunExtractOptions, runExtract } from "../../src/extract/extract.js";
import { type LmsDatabase, openDatabase } from "../../src/load/database.js";
import { type Logger, silentLogger } from "../../src/log/logger.js";
import { EXTRACTED, type ExtractedName } from "../../src/resources/registry.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { countRows, normaliseApi, normaliseTable } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "secret-key-7f3a9c";
const NOW = new Date("2026-06-01T00:00:00Z");

const dir = tempDirForFile("lms-extract-");

function collectingLogger(lines: string[]): Logger {
  const log = (level: string) => (message: string, fields?: object) => {
    lines.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
  };
  return { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

function options(
  sim: RunningSimulator,
  db: string | LmsDatabase,
  extra: Partial<RunExtractOptions> = {},
): RunExtractOptions {
  return {
    db,
    clientOptions: {
      baseUrl: sim.baseUrl,
      apiKey: KEY,
      concurrency: 8,
      pageSize: 50,
      retryBaseMs: 5,
      retryMaxMs: 50,
    },
    mode: "full",
    logger: silentLogger,
    ...extra,
  };
}

/** Every extracted table equals the portal's data, record for record and field for field. */
async function expectExact(
  db: LmsDatabase,
  sim: RunningSimulator,
  resources: readonly ExtractedName[] = EXTRACTED,
) {
  const connection = await db.connect();
  try {
    for (const resource of resources) {
      const expected = normaliseApi(resource, sim.data.list(resource));
      if (resource === "product") {
        // Deleted products are referenced but answer 404: they cannot be in the table.
        const actual = await normaliseTable(connection, resource);
        expect(actual.size, resource).toBeGreaterThan(0);
        for (const [id, row] of actual) expect(row, `${resource} ${id}`).toEqual(expected.get(id));
        continue;
      }
      const actual = await normaliseTable(connection, resource);
      expect(
        [...actual.keys()].sort((a, b) => a - b),
        resource,
      ).toEqual([...expected.keys()].sort((a, b) => a - b));
      for (const [id, row] of expected) expect(actual.get(id), `${resource} ${id}`).toEqual(row);
    }
  } finally {
    connection.closeSync();
  }
}

describe("extract", () => {
  it("copies every resource exactly, records not-found ids, and keeps the key out of the database and logs", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 120,
      takesPerUser: 6,
      now: NOW,
      seed: 3,
    });
    const file = join(dir, "exact.duckdb");
    const db = await openDatabase(file);
    const lines: string[] = [];
    try {
      const result = await runExtract(options(sim, db, { logger: collectingLogger(lines) }));
      await expectExact(db, sim);
      expect(result.tables.take).toBe(sim.data.list("take").length);
      const connection = await db.connect();
      const products = new Set(sim.data.list("product").map((p) => p.product_id));
      const notFound = await connection.runAndReadAll(
        "SELECT resource, id FROM _not_found ORDER BY id",
      );
      const missing = notFound.getRows();
      expect(missing.length).toBeGreaterThan(0);
      for (const [resource, id] of missing) {
        expect(resource).toBe("product");
        expect(products.has(Number(id))).toBe(false);
      }
      const runs = await connection.runAndReadAll("SELECT status, mode FROM _runs");
      expect(runs.getRows()).toEqual([["succeeded", "full"]]);
      const stats = await connection.runAndReadAll(
        "SELECT resource, records FROM _run_resources WHERE resource = 'take'",
      );
      expect(stats.getRows()).toEqual([["take", BigInt(sim.data.list("take").length)]]);
      // Every request sent is counted, page one asked again by a list of several pages too.
      const sent = await connection.runAndReadAll(
        "SELECT sum(requests)::INTEGER FROM _run_resources",
      );
      const tokens = sim.stats.byOperation.get("token") ?? 0;
      expect(tokens).toBeGreaterThan(0);
      expect(sent.getRows()).toEqual([[sim.stats.requests - tokens]]);
      // The extract's lower memory ceiling is lifted again for whatever runs next on the instance.
      const limit = await connection.runAndReadAll("SELECT current_setting('memory_limit')");
      expect(limit.getRows()).toEqual([["244.1 MiB"]]);
      connection.closeSync();
    } finally {
      db.close();
      await sim.close();
    }
    const bytes = await readFile(file);
    expect(bytes.includes(Buffer.from(KEY))).toBe(false);
    expect(lines.join("\n")).not.toContain(KEY);
  });

  it("ends with exactly the portal's data with every fault switched on at once", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 80,
      takesPerUser: 4,
      now: NOW,
      seed: 5,
      faults: {
        errorRate: 0.1,
        rateLimitRate: 0.05,
        retryAfterSeconds: 0,
        resetRate: 0.05,
        malformedRate: 0.05,
        statusFalseRate: 0.05,
        tokenMaxRequests: 200,
        jitterMs: 5,
      },
    });
    const db = await openDatabase(join(dir, "faults.duckdb"));
    try {
      const result = await runExtract(
        options(sim, db, { clientOptions: { ...options(sim, db).clientOptions, maxAttempts: 12 } }),
      );
      expect(result.retries).toBeGreaterThan(0);
      sim.faults.errorRate = 0;
      await expectExact(db, sim);
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("misses nothing and duplicates nothing when records are inserted while lists page", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 150,
      takesPerUser: 2,
      now: NOW,
      seed: 9,
    });
    const before = new Map(
      (["grp", "user_grp", "product_access", "svc_availability"] as const).map((name) => [
        name,
        sim.data.list(name).length,
      ]),
    );
    sim.faults.insertWhilePaging = 2;
    const db = await openDatabase(join(dir, "drift.duckdb"));
    try {
      await runExtract(
        options(sim, db, {
          only: ["grp", "user_grp", "product_access", "svc_availability"],
          clientOptions: { ...options(sim, db).clientOptions, pageSize: 4 },
        }),
      );
      sim.faults.insertWhilePaging = 0;
      const connection = await db.connect();
      for (const [name, count] of before) {
        const all = sim.data.list(name);
        expect(all.length, `${name} grew while paging`).toBeGreaterThan(count);
        const table = await normaliseTable(connection, name);
        // Records that existed at the start are ordered first by id: every one of them arrived.
        const expected = normaliseApi(name, all);
        const ids = [...expected.keys()].sort((a, b) => a - b).slice(0, count);
        for (const id of ids) expect(table.get(id), `${name} ${id}`).toEqual(expected.get(id));
        const pk = `${name === "grp" ? "grp" : name}_id`;
        const dupes = await connection.runAndReadAll(
          `SELECT count(*) - count(DISTINCT ${pk}) FROM ${name}`,
        );
        expect(Number(dupes.getRows()[0]?.[0])).toBe(0);
      }
      connection.closeSync();
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("an incremental run brings the changes made through the edit operations", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 60,
      takesPerUser: 3,
      now: NOW,
      seed: 11,
    });
    const db = await openDatabase(join(dir, "incremental.duckdb"));
    try {
      await runExtract(options(sim, db));
      const group = sim.data.list("grp")[0]!;
      const access = sim.data.list("product_access")[0]!;
      const editGroup = await fetch(`${sim.baseUrl}/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ apikey: KEY }),
      });
      const { token } = (await editGroup.json()) as { token: string };
      const post = (path: string, body: unknown) =>
        fetch(`${sim.baseUrl}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: token },
          body: JSON.stringify(body),
        }).then((r) => r.json());
      await post(`/grp/edit/${group.grp_id}`, { grp_description: "Renamed: Équipe ✓" });
      await post(`/product_access/edit/${access.product_access_id}`, {
        product_access_status: "expired",
      });
      const created = (await post("/user_grp/create", {
        user_grp_grp_id: group.grp_id,
        user_grp_user_id: sim.data.userIds()[0],
        user_grp_group_admin: 1,
      })) as { result: { user_grp_id: number } };
      const result = await runExtract(options(sim, db, { mode: "incremental" }));
      expect(result.mode).toBe("incremental");
      expect(result.resources.get("grp")?.records).toBeLessThan(sim.data.list("grp").length);
      await expectExact(db, sim);
      const connection = await db.connect();
      const row = await connection.runAndReadAll(
        "SELECT grp_description FROM grp WHERE grp_id = $id",
        { id: group.grp_id },
      );
      expect(row.getRows()).toEqual([["Renamed: Équipe ✓"]]);
      const link = await connection.runAndReadAll(
        "SELECT count(*)::INTEGER FROM user_grp WHERE user_grp_id = $id",
        {
          id: created.result.user_grp_id,
        },
      );
      expect(link.getRows()).toEqual([[1]]);
      expect(await countRows(connection, "_runs")).toBe(2);
      connection.closeSync();
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("a portal that fails mid-run leaves the previous data exactly as it was and the run marked failed", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 40,
      takesPerUser: 3,
      now: NOW,
      seed: 13,
    });
    const db = await openDatabase(join(dir, "failing.duckdb"));
    try {
      await runExtract(options(sim, db));
      const connection = await db.connect();
      const before = await normaliseTable(connection, "take");
      // The key is accepted, then every answer fails: past the retry budget the run gives up.
      const fail = setInterval(() => {
        if (sim.stats.tokensIssued >= 2) sim.faults.errorRate = 1;
      }, 1);
      await expect(
        runExtract(
          options(sim, db, {
            clientOptions: { ...options(sim, db).clientOptions, maxAttempts: 2 },
          }),
        ),
      ).rejects.toThrow(/database is unchanged \(`lms-export extract --resume`/);
      clearInterval(fail);
      expect(await normaliseTable(connection, "take")).toEqual(before);
      const runs = await connection.runAndReadAll("SELECT status FROM _runs ORDER BY run_id");
      expect(runs.getRows()).toEqual([["succeeded"], ["failed"]]);
      connection.closeSync();
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("a wrong key fails before anything is written and keeps an interrupted run resumable", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 60,
      takesPerUser: 3,
      now: NOW,
      seed: 14,
      faults: { latencyMs: 3 },
    });
    const db = await openDatabase(join(dir, "wrong-key.duckdb"));
    try {
      const controller = new AbortController();
      const timer = setInterval(() => {
        if (sim.stats.requests > 40) controller.abort();
      }, 2);
      await expect(runExtract(options(sim, db, { signal: controller.signal }))).rejects.toThrow(
        /interrupted/,
      );
      clearInterval(timer);
      const wrong = options(sim, db);
      await expect(
        runExtract({ ...wrong, clientOptions: { ...wrong.clientOptions, apiKey: "not-the-key" } }),
      ).rejects.toMatchObject({ code: "auth-refused" });
      const connection = await db.connect();
      const runs = await connection.runAndReadAll("SELECT status FROM _runs ORDER BY run_id");
      expect(runs.getRows()).toEqual([["interrupted"]]);
      connection.closeSync();
      const resumed = await runExtract(options(sim, db, { resume: true }));
      expect(resumed.runId).toBe(1);
      await expectExact(db, sim);
    } finally {
      db.close();
      await sim.close();
    }
  });

  it("a refused key leaves no database behind where there was none, and an existing one as it was", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 10,
      takesPerUser: 1,
      now: NOW,
      seed: 15,
    });
    try {
      const run = (path: string, apiKey: string) => {
        const base = options(sim, path);
        return runExtract({ ...base, clientOptions: { ...base.clientOptions, apiKey } });
      };
      const fresh = join(dir, "refused-fresh.duckdb");
      await expect(run(fresh, "not-the-key")).rejects.toMatchObject({ code: "auth-refused" });
      expect(existsSync(fresh)).toBe(false);
      expect(existsSync(`${fresh}.staging`)).toBe(false);
      const kept = join(dir, "refused-kept.duckdb");
      await run(kept, KEY);
      const bytes = await readFile(kept);
      await expect(run(kept, "not-the-key")).rejects.toMatchObject({ code: "auth-refused" });
      expect((await readFile(kept)).equals(bytes)).toBe(true);
    } finally {
      await sim.close();
    }
  });

  it("an unknown --only resource is refused before anything is written", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 20,
      takesPerUser: 2,
      now: NOW,
      seed: 15,
    });
    const db = await openDatabase(join(dir, "only.duckdb"));
    try {
      await expect(runExtract(options(sim, db, { only: ["tkae"] }))).rejects.toThrow(
        /--only: unknown resource "tkae"/,
      );
      expect(sim.stats.requests).toBe(0);
    } finally {
      db.close();
      await sim.close();
    }
  });
  it("an incremental run after an --only run still sees changes to the resources it left out", async () => {
    const sim = await startSimulator({
      apiKey: KEY,
      users: 30,
      takesPerUser: 2,
      now: NOW,
      seed: 17,
    });
    const db = await openDatabase(join(dir, "cursor.duckdb"));
    try {
      await runExtract(options(sim, db));
      // Portal dates have whole seconds: the edit must land in a later second than the run's start.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const access = sim.data.list("product_access")[0]!;
      const status = access.product_access_status === "expired" ? "active" : "expired";
      sim.data.edit("product_access", access.product_access_id, { product_access_status: status });
      await runExtract(options(sim, db, { only: ["grp"] }));
      await runExtract(options(sim, db, { mode: "incremental", lookbackMs: 0 }));
      const connection = await db.connect();
      const row = await connection.runAndReadAll(
        "SELECT product_access_status FROM product_access WHERE product_access_id = $id",
        { id: access.product_access_id },
      );
      expect(row.getRows()).toEqual([[status]]);
      connection.closeSync();
    } finally {
      db.close();
      await sim.close();
    }
  });
});
