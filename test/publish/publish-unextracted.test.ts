/**
 * A database whose first extract never succeeded (interrupted here, against the simulator) holds
 * the tables, empty, and a `_runs` row that is not `succeeded`. Publishing it is refused, to the
 * lake and to PostgreSQL, leaving what an earlier publish put there as it was.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type pg from "pg";
import { describe, expect, test } from "vitest";
import { postgresInstalled } from "../../src/bench/temp-postgres.js";
import { startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { useBiServer } from "./helpers/bi-server.js";
import { FIXTURE_ROWS, filledDatabase } from "./helpers/filled-db.js";

const KEY = "unextracted-key";
const PASSWORD = "unextracted-pw";
const installed = postgresInstalled();
const bi = useBiServer(PASSWORD, installed);

/** Starts an extract into `db` and stops it with Ctrl-C once it is asking the portal for data. */
async function interruptedExtract(dir: string, db: string): Promise<void> {
  const sim = await startSimulator({ apiKey: KEY, users: 200, seed: 3, faults: { latencyMs: 50 } });
  try {
    const keyFile = join(dir, "key");
    await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
    const args = ["--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db];
    const child = spawnCli(["extract", ...args, "--concurrency", "1", "--log-format", "json"]);
    const done = collect(child);
    while (sim.stats.requests < 3 && child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    child.kill("SIGINT");
    expect((await done).code).toBe(130);
  } finally {
    await sim.close();
  }
}

async function takeCount(client: pg.Client): Promise<number> {
  return Number((await client.query("SELECT count(*) AS n FROM lms.take")).rows[0].n);
}

describe("publishing a database no extract has succeeded in", () => {
  test.skipIf(!installed)(
    "is refused for the lake and PostgreSQL, which keep the last publish",
    async () => {
      const dir = await tempDir();
      (await filledDatabase(dir, "good")).close();
      await interruptedExtract(dir, join(dir, "never.duckdb"));
      const env = { PGPASSWORD: PASSWORD };
      const targets = ["--lake", "lake", "--postgres", bi.current.url];
      const first = await runCli(dir, ["publish", "--db", "good.duckdb", ...targets], env);
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      const manifest = await readFile(join(dir, "lake", "_lake.json"), "utf8");

      for (const target of [targets.slice(0, 2), targets.slice(2)]) {
        const refused = await runCli(dir, ["publish", "--db", "never.duckdb", ...target], env);
        expect(refused.code).toBe(1);
        expect(refused.stderr.trim().split("\n")).toEqual([
          `lms-export: the database ${join(dir, "never.duckdb")} holds no successful extract (no run in its _runs succeeded), and publishing it would replace the published tables with empty ones, so nothing was published; run "lms-export extract" until it succeeds, then publish`,
        ]);
      }
      expect(await readFile(join(dir, "lake", "_lake.json"), "utf8")).toBe(manifest);
      const client = await bi.current.server.admin("bi");
      try {
        expect(await takeCount(client)).toBe(FIXTURE_ROWS.take);
      } finally {
        await client.end();
      }
    },
    120_000,
  );
});
