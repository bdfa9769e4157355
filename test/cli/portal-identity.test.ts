/**
 * A portal of the config file takes its address and its key from its own entry (or a flag), never
 * from LMS_BASE_URL, LMS_API_KEY, LMS_API_KEY_FILE or the file's top level: an entry missing
 * either is refused naming the field to set, before any request, so one portal's key never
 * reaches another portal's address and the environment's key never reaches every portal.
 * Real simulated portals over HTTP, in-process through main().
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-portal-identity-");
const configFile = join(dir, "lms-export.config.json");
let acme: RunningSimulator;
let globex: RunningSimulator;

beforeAll(async () => {
  acme = await startSimulator({ users: 5, takesPerUser: 1, apiKey: "acme-key" });
  globex = await startSimulator({ users: 5, takesPerUser: 1, apiKey: "globex-key" });
  await writeFile(join(dir, "acme.key"), "acme-key\n", { mode: 0o600 });
  await writeFile(join(dir, "globex.key"), "globex-key\n", { mode: 0o600 });
  const config = {
    baseUrl: acme.baseUrl,
    apiKeyFile: "acme.key",
    portals: {
      acme: { baseUrl: acme.baseUrl, apiKeyFile: "acme.key" },
      // Forgot its address: the top level's is acme's.
      globex: { apiKeyFile: "globex.key" },
      // Forgot its key file: LMS_API_KEY is set.
      initech: { baseUrl: globex.baseUrl },
    },
  };
  await writeFile(configFile, JSON.stringify(config));
});

afterAll(async () => {
  await Promise.all([acme.close(), globex.close()]);
});

const tokenRequests = (sim: RunningSimulator) => sim.stats.byOperation.get("token") ?? 0;

describe("a portal entry without its own address or key", () => {
  test("--all-portals refuses each such portal by name and sends nothing for it", async () => {
    const acmeTokens = tokenRequests(acme);
    const run = await runCli(dir, ["extract", "--all-portals", "--only", "grp"], {
      LMS_API_KEY: "env-key",
      LMS_BASE_URL: acme.baseUrl,
    });
    const line = (name: string) =>
      run.stdout.split("\n").find((l) => l.startsWith(`portal ${name}:`));
    expect(line("acme")).toBe("portal acme: done");
    expect(line("globex")).toContain(
      `portal "globex" has no address: set "portals.globex.baseUrl" in ${configFile}`,
    );
    expect(line("initech")).toContain(
      `portal "initech" has no key file: set "portals.initech.apiKeyFile" in ${configFile}`,
    );
    // Only acme's own token request reached acme; nothing reached initech's address.
    expect(tokenRequests(acme) - acmeTokens).toBe(1);
    expect(globex.stats.requests).toBe(0);
    expect(run.stdout + run.stderr).not.toContain("env-key");
    expect(run.code).toBe(1);
  });

  test("--portal with a flag for the missing setting works: flags still win", async () => {
    const run = await runCli(
      dir,
      ["extract", "--portal", "initech", "--api-key-file", "globex.key", "--only", "grp"],
      { LMS_API_KEY: "env-key" },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  test("--portal names the entry's field, not LMS_BASE_URL, when the address is missing", async () => {
    const run = await runCli(dir, ["extract", "--portal", "globex", "--only", "grp"], {
      LMS_BASE_URL: acme.baseUrl,
    });
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain('set "portals.globex.baseUrl"');
    expect(run.code).toBe(2);
  });

  test("run refuses a portal without an address before making its report folder", async () => {
    const run = await runCli(dir, ["run", "compliance", "--portal", "globex", "--out", "reports"]);
    expect(run.stderr).toContain('set "portals.globex.baseUrl"');
    expect(run.code).toBe(2);
    expect(existsSync(join(dir, "reports"))).toBe(false);
  });
});
