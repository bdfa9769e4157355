/**
 * A portal that takes its token only as `Bearer <token>` (the simulator's other dialect): the
 * first extract learns the form with requests the portal refuses, the next one starts with the
 * form remembered and makes exactly the requests its records need.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { minimumRequests } from "../../src/bench/minimum-requests.js";
import { openDatabase } from "../../src/load/database.js";
import { startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/spawn-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "remembered-form-key-0c4d";
const dir = tempDirForFile("lms-remembered-form-");

async function minimumOf(path: string, pageSize: number): Promise<number> {
  const db = await openDatabase(path, { readOnly: true });
  const connection = await db.connect();
  try {
    return await minimumRequests(connection, pageSize);
  } finally {
    connection.closeSync();
    db.close();
  }
}

describe("the Authorization form a portal accepted, remembered", () => {
  it("a second extract against a Bearer-only portal makes the minimum of requests", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 60, takesPerUser: 3, dialect: "other" });
    const keyFile = join(dir, "key");
    await writeFile(keyFile, `${KEY}\n`, { mode: 0o600 });
    const db = join(dir, "bearer.duckdb");
    const args = ["extract", "--base-url", sim.baseUrl, "--api-key-file", keyFile, "--db", db];
    args.push("--page-size", "40", "--concurrency", "4", "--log-format", "json");
    const env = { XDG_STATE_HOME: join(dir, "state") };
    try {
      const first = await runCli(args, { env });
      expect(first.code, first.stderr).toBe(0);
      expect(sim.stats.tokenRefusals).toBeGreaterThan(0);
      expect(first.stderr).toContain('accepts it with the prefix \\"Bearer\\"');

      const [refusals, requests] = [sim.stats.tokenRefusals, sim.stats.requests];
      const second = await runCli(args, { env });
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).not.toContain("Bearer");
      expect(sim.stats.tokenRefusals).toBe(refusals);
      expect(sim.stats.requests - requests).toBe(await minimumOf(db, 40));
      // Kept by base URL, in the state folder, nothing but the form.
      const kept = await readFile(join(dir, "state", "lms-export", "authorization-forms.json"));
      expect(JSON.parse(kept.toString())).toEqual({ [sim.baseUrl]: "Bearer" });
    } finally {
      await sim.close();
    }
  });
});
