/**
 * A shared report parameter that no query declares (`report.params` of the config file holding
 * `due_dayz`, a typo of `due_days`) is warned of once per command, however many portals it reads
 * or steps it takes: `report --all-portals` over two portals, `report --lake` of their lake, and
 * `run --portal`, which resolves its reports before the extract and again after it. Real simulated
 * portals over HTTP and real databases, in-process through main().
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RunningSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { twoExtractedPortals } from "../helpers/two-portals.js";

const dir = tempDirForFile("lms-portals-param-warning-");
const sims: RunningSimulator[] = [];
const cli = (args: string[]) => runCli(dir, args);

beforeAll(async () => {
  sims.push(...(await twoExtractedPortals(dir, { report: { params: { due_dayz: 3 } } })));
  const publish = await cli(["publish", "--lake", "lake", "--all-portals"]);
  expect(publish.code, publish.stderr).toBe(0);
});

afterAll(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
});

/** The warnings (JSON log lines) about the parameter no query declares. */
const undeclared = (stderr: string) =>
  stderr
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; msg: string })
    .filter((record) => record.level === "warn" && record.msg.includes("due_dayz"))
    .map((record) => record.msg);

test.each([
  ["report --all-portals", ["report", "compliance", "--all-portals", "--out", "all"]],
  ["report --lake", ["report", "compliance", "--lake", "lake", "--out", "lake-out"]],
  ["run --portal", ["run", "compliance", "--portal", "north"]],
])("%s warns once of a parameter no query declares", async (_, args) => {
  const result = await cli([...args, "--format", "csv"]);
  expect(result.code, result.stderr).toBe(0);
  expect(undeclared(result.stderr)).toEqual([
    expect.stringMatching(/^report parameter due_dayz from .* did you mean "due_days"\?$/),
  ]);
});
