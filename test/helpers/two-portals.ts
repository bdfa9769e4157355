/**
 * Two small simulated portals, north and south, named in a config file of a test's folder (their
 * key in the file `key`) and extracted with `--all-portals`: what the tests of several portals'
 * reports start from. Real portals over HTTP and real databases, through main() in-process.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "./in-process-cli.js";

/** The portals' simulators (the caller closes them), with `config` added to the config file. */
export async function twoExtractedPortals(
  dir: string,
  config: Record<string, unknown> = {},
): Promise<RunningSimulator[]> {
  await mkdir(dir, { recursive: true });
  const sims = [
    await startSimulator({ users: 10, takesPerUser: 1, seed: 1, apiKey: "k" }),
    await startSimulator({ users: 10, takesPerUser: 1, seed: 2, apiKey: "k" }),
  ];
  await writeFile(join(dir, "key"), "k\n", { mode: 0o600 });
  const portals = {
    north: { baseUrl: sims[0]?.baseUrl, apiKeyFile: "key" },
    south: { baseUrl: sims[1]?.baseUrl, apiKeyFile: "key" },
  };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals, ...config }));
  const extract = await runCli(dir, ["extract", "--all-portals"]);
  expect(extract.code, extract.stderr).toBe(0);
  return sims;
}
