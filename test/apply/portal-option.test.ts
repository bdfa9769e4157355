/**
 * `apply --portal NAME` sends to that portal of the config file, with its address, key and
 * database, as extract and report take them. Two simulated portals of the same data over real
 * HTTP, each extracted into its own database; both are read back through the API.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { query } from "../roster/roster-cli.js";

const KEY = "portal-option-key";
const dir = tempDirForFile("lms-apply-portal-");
let sims: RunningSimulator[] = [];

beforeAll(async () => {
  // The same seed: the same group ids hold the same records in both portals.
  sims = [
    await startSimulator({ users: 30, takesPerUser: 1, seed: 5, apiKey: KEY }),
    await startSimulator({ users: 30, takesPerUser: 1, seed: 5, apiKey: KEY }),
  ];
  await writeFile(join(dir, "key"), `${KEY}\n`, { mode: 0o600 });
  const portals = {
    first: { baseUrl: sims[0]?.baseUrl, apiKeyFile: "key" },
    second: { baseUrl: sims[1]?.baseUrl, apiKeyFile: "key" },
  };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
  const extract = await runCli(dir, ["extract", "--all-portals"]);
  expect(extract.code, extract.stderr).toBe(0);
});

afterAll(async () => {
  for (const sim of sims) await sim.close();
});

/** Every group of the portal at `baseUrl`, by id, as its API lists them. */
async function groupsOf(baseUrl: string): Promise<Map<number, Record<string, unknown>>> {
  const post = async (path: string, body: unknown, token?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token !== undefined) headers.authorization = token;
    const answer = await fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
    return (await answer.json()) as Record<string, unknown>;
  };
  const { token } = await post("/token", { apikey: KEY });
  const listed = await post("/grp/get_all", { start: 0, limit: 1000 }, String(token));
  const groups = listed.result as Record<string, unknown>[];
  return new Map(groups.map((group) => [Number(group.grp_id), group]));
}

describe("apply --portal", () => {
  it("changes the named portal only, planned on and recorded in that portal's database", async () => {
    const [first, second] = sims.map((sim) => sim.baseUrl) as [string, string];
    const before = await groupsOf(first);
    const [id] = [...before.keys()];
    expect(await groupsOf(second)).toEqual(before);
    await writeFile(join(dir, "groups.csv"), `grp_id,grp_description\n${id},second only\n`);
    const args = ["apply", "groups.csv", "--op", "grp.edit", "--portal", "second", "--yes"];
    const applied = await runCli(dir, args);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("1 applied");
    expect((await groupsOf(second)).get(Number(id))?.grp_description).toBe("second only");
    expect(await groupsOf(first)).toEqual(before);
    const changes = "SELECT record_id, outcome FROM _changes";
    expect(await query(join(dir, "lms-second.duckdb"), changes)).toEqual([
      { record_id: BigInt(id as number), outcome: "applied" },
    ]);
    expect(await query(join(dir, "lms-first.duckdb"), changes)).toEqual([]);
  });

  it("refuses a name the config file lacks as extract does, with exit 2", async () => {
    const extract = await runCli(dir, ["extract", "--portal", "west"]);
    const args = ["apply", "groups.csv", "--op", "grp.edit", "--portal", "west", "--yes"];
    for (const run of [await runCli(dir, args), await runCli(dir, [...args, "--dry-run"])]) {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/^lms-export: --portal west is not under "portals".*\n$/);
      expect(run.stderr).toBe(extract.stderr);
    }
  });

  it("without --portal, names the config file's portals rather than LMS_BASE_URL or an extract", async () => {
    const run = await runCli(dir, ["apply", "groups.csv", "--op", "grp.edit", "--yes"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("lists portals first, second: pass --portal NAME\n");
    // A dry run needs no address, but the top-level database is not one the portals extracted.
    const dry = await runCli(dir, ["apply", "groups.csv", "--op", "grp.edit", "--dry-run"]);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toMatch(
      /^lms-export: database .*lms\.duckdb does not exist, and the config file .* lists portals first, second: pass --portal NAME\n$/,
    );
  });

  it("with --db naming a database that is not there, says so rather than asking for --portal", async () => {
    // --db chose the database: the portals' list is no answer, the missing file is.
    const args = ["apply", "groups.csv", "--op", "grp.edit", "--db", "typo.duckdb"];
    for (const extra of [
      ["--dry-run"],
      ["--base-url", String(sims[0]?.baseUrl), "--api-key-file", "key", "--yes"],
    ]) {
      const run = await runCli(dir, [...args, ...extra]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(
        /^lms-export: database .*typo\.duckdb does not exist; run "lms-export extract" first .* or check --db\n$/,
      );
    }
  });

  it("is in --help", async () => {
    const help = await runCli(dir, ["apply", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--portal +A portal under "portals" in the config file/);
  });
});
