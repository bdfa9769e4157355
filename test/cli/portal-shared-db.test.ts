/**
 * Two portals of the config file naming one database file are refused before anything runs:
 * `extract --all-portals` wrote both into it at once, leaving one portal's rows beside the other's
 * run, and reports showed one portal's data under both names. A real simulated portal over HTTP,
 * in-process through main().
 */
import { existsSync } from "node:fs";
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-portal-shared-db-");
const configFile = join(dir, "lms-export.config.json");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ users: 5, takesPerUser: 1, apiKey: "key" });
  await writeFile(join(dir, "key"), "key\n", { mode: 0o600 });
});

afterAll(async () => {
  await sim.close();
});

const portal = (db?: string) => ({
  baseUrl: sim.baseUrl,
  apiKeyFile: "key",
  ...(db === undefined ? {} : { db }),
});

describe("two portals sharing one database file", () => {
  it.each([
    ["the same db", ["shared.duckdb", "./shared.duckdb"], "shared.duckdb"],
    ["one's db is the other's default", [undefined, "lms-acme.duckdb"], "lms-acme.duckdb"],
  ])("%s: refused naming both, nothing extracted", async (_case, [acmeDb, globexDb], db) => {
    const portals = { acme: portal(acmeDb), globex: portal(globexDb) };
    await writeFile(configFile, JSON.stringify({ portals }));
    const before = sim.stats.requests;
    const run = await runCli(dir, ["extract", "--all-portals", "--only", "grp"]);
    expect(run.stderr).toBe(
      `lms-export: ${configFile}: portals "acme" and "globex" share the database ${join(dir, db)}: give each portal its own "db"\n`,
    );
    expect(run.code).toBe(2);
    expect(sim.stats.requests).toBe(before);
    expect(existsSync(join(dir, db))).toBe(false);
  });

  it("a link to another portal's database is that database: refused", async () => {
    await symlink(join(dir, "north.duckdb"), join(dir, "link.duckdb"));
    const portals = { north: portal("north.duckdb"), south: portal("link.duckdb") };
    await writeFile(configFile, JSON.stringify({ portals }));
    const before = sim.stats.requests;
    const run = await runCli(dir, ["extract", "--all-portals", "--only", "grp"]);
    expect(run.stderr).toBe(
      `lms-export: ${configFile}: portals "north" and "south" share the database ${join(dir, "north.duckdb")} (as ${join(dir, "link.duckdb")}): give each portal its own "db"\n`,
    );
    expect(run.code).toBe(2);
    expect(sim.stats.requests).toBe(before);
  });

  it("the top-level db is a portal's, with another address: refused; with the same, it is that portal", async () => {
    const portals = { north: portal("north-top.duckdb") };
    const other = "http://127.0.0.1:9/api-v2";
    await writeFile(
      configFile,
      JSON.stringify({ baseUrl: other, apiKeyFile: "key", db: "north-top.duckdb", portals }),
    );
    const refused = await runCli(dir, ["extract", "--portal", "north", "--only", "grp"]);
    expect(refused.stderr).toBe(
      `lms-export: ${configFile}: the top-level "db" is the database of portal "north" (${join(dir, "north-top.duckdb")}) while the top-level "baseUrl" is another portal's: give the top level its own "db", or make it portal "north"'s address\n`,
    );
    expect(refused.code).toBe(2);
    // The same address with a trailing slash is the same portal.
    const same = { baseUrl: `${sim.baseUrl}/`, apiKeyFile: "key", db: "north-top.duckdb", portals };
    await writeFile(configFile, JSON.stringify(same));
    const run = await runCli(dir, ["extract", "--only", "grp"]);
    expect(run.code, run.stderr).toBe(0);
  });

  it("each portal with its own database runs", async () => {
    await writeFile(configFile, JSON.stringify({ portals: { acme: portal(), globex: portal() } }));
    const run = await runCli(dir, ["extract", "--all-portals", "--only", "grp"]);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(dir, "lms-acme.duckdb"))).toBe(true);
    expect(existsSync(join(dir, "lms-globex.duckdb"))).toBe(true);
  });
});
