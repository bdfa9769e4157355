/**
 * Which API key goes to which portal: a portal entry's key file wins over LMS_API_KEY, so one key
 * in the environment is never sent to every portal, and a refusal names where the key came from.
 * Real simulated portals over HTTP, in-process through main().
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-portal-key-");
const sims: RunningSimulator[] = [];
const configFile = join(dir, "lms-export.config.json");

beforeAll(async () => {
  for (const apiKey of ["acme-key", "globex-key"]) {
    sims.push(await startSimulator({ users: 5, takesPerUser: 1, apiKey }));
  }
  await writeFile(join(dir, "acme.key"), "acme-key\n", { mode: 0o600 });
  await writeFile(join(dir, "globex.key"), "globex-key\n", { mode: 0o600 });
  await writeFile(join(dir, "stale.key"), "stale-key\n", { mode: 0o600 });
  const portals = {
    acme: { baseUrl: sims[0]!.baseUrl, apiKeyFile: "acme.key" },
    globex: { baseUrl: sims[1]!.baseUrl, apiKeyFile: "globex.key" },
    stale: { baseUrl: sims[1]!.baseUrl, apiKeyFile: "stale.key" },
  };
  await writeFile(configFile, JSON.stringify({ portals }));
});

afterAll(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
});

describe("a portal's key file and LMS_API_KEY", () => {
  test("--portal sends the portal's own key, not LMS_API_KEY", async () => {
    const env = { LMS_API_KEY: "env-key" };
    for (const portal of ["acme", "globex"]) {
      const run = await runCli(dir, ["extract", "--portal", portal, "--only", "grp"], env);
      expect(run.stderr, portal).toBe("");
      expect(run.code, portal).toBe(0);
    }
  });

  test("--all-portals sends each portal its own key; a refusal names that portal's key file", async () => {
    const run = await runCli(dir, ["extract", "--all-portals", "--only", "grp"], {
      LMS_API_KEY: "env-key",
    });
    expect(run.stdout).toContain("portal acme: done");
    expect(run.stdout).toContain("portal globex: done");
    const stale = run.stdout.split("\n").find((line) => line.startsWith("portal stale:"));
    expect(stale).toContain(
      `check the key in the key file ${join(dir, "stale.key")} (${configFile} (portals.stale.apiKeyFile))`,
    );
    expect(run.stdout).not.toContain("env-key");
    expect(run.code).toBe(1);
  });

  test("a refused LMS_API_KEY is named as the key's source", async () => {
    const run = await runCli(dir, ["extract", "--base-url", sims[0]!.baseUrl, "--only", "grp"], {
      LMS_API_KEY: "env-key",
      LMS_DB: "plain.duckdb",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("refused the API key");
    expect(run.stderr).toContain("check the key in LMS_API_KEY");
    expect(run.stderr).not.toContain("env-key");
  });
});
