/**
 * The shipped `freshness` query after real extracts that failed: a portal that refuses the page
 * size fails every run before its merge, which leaves a `failed` row in `_runs` and no
 * `_run_resources` rows. The failed run must show as each resource's last attempt, of the
 * resources it was asked for only (`--only`), from the database and from a lake published of it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { EXTRACTED } from "../../src/resources/registry.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const KEY = "freshness-key-83c1";
const dir = tempDirForFile("lms-freshness-failed-");
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ apiKey: KEY, users: 30, takesPerUser: 2, seed: 21 });
});
afterAll(() => sim.close());

const env = { LMS_API_KEY: KEY };

async function extract(extra: string[], refuse: boolean): Promise<number> {
  // A page size above what the portal allows is refused (HTTP 400) on the first list request.
  sim.faults.refuseLimitAbove = refuse ? 100 : 0;
  const run = await runCli(dir, ["extract", "--base-url", sim.baseUrl, ...extra], env);
  return run.code;
}

/** The freshness rows as `resource → [last_run_id, last_attempt_run_id, last_attempt_status]`. */
async function freshness(source: string[], out: string): Promise<Record<string, string[]>> {
  const report = await runCli(dir, [
    "report",
    "freshness",
    ...source,
    "--format",
    "csv",
    "--out",
    out,
  ]);
  expect(report.code, report.stderr).toBe(0);
  const file = report.stdout
    .split("\n")
    .find((l) => l.trim().endsWith(".csv"))!
    .trim();
  const [header, ...lines] = (await readFile(join(dir, file), "utf8")).trimEnd().split(/\r?\n/);
  const columns = header!.split(",");
  const at = (name: string) => columns.indexOf(name);
  return Object.fromEntries(
    lines.map((line) => {
      const cells = line.split(",");
      return [
        cells[at("resource")]!,
        [at("last_run_id"), at("last_attempt_run_id"), at("last_attempt_status")].map(
          (i) => cells[i]!,
        ),
      ];
    }),
  );
}

const every = (row: string[]) => Object.fromEntries([...EXTRACTED].map((r) => [r, row]));

describe("freshness after a failed extract", () => {
  test("a run that failed before its merge is the last attempt of the resources it was asked for", async () => {
    expect(await extract([], false)).toBe(0); // run 1
    expect(await extract([], true)).toBe(1); // run 2: failed, nothing merged
    expect(await freshness([], "after-2")).toEqual(every(["1", "2", "failed"]));

    expect(await extract([], false)).toBe(0); // run 3
    expect(await extract(["--only", "take"], true)).toBe(1); // run 4: take only, failed
    const expected = { ...every(["3", "3", "succeeded"]), take: ["3", "4", "failed"] };
    expect(await freshness([], "after-4")).toEqual(expected);

    // The lake has the same `_runs` (its `options` as text): the same answer.
    const publish = await runCli(dir, ["publish", "--lake", "lake", "--portal", "p"], env);
    expect(publish.code, publish.stderr).toBe(0);
    expect(await freshness(["--lake", "lake"], "lake")).toEqual(expected);
  });
});
