/**
 * `extract --all-portals` runs the portals at once on one stderr: each log line names the portal
 * it concerns (`[NAME]` in the human format, a `portal` field in JSON), so interleaved lines can be
 * told apart, while `--portal NAME` alone prints its lines untagged as before. The built CLI as a
 * child process against two simulated portals over HTTP.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { builtCli } from "../helpers/built-cli.js";
import { collect } from "../helpers/child-output.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-portals-log-tag-");
const PORTALS = ["north", "south"] as const;
const sims: RunningSimulator[] = [];

beforeAll(async () => {
  const portals: Record<string, unknown> = {};
  for (const [index, name] of PORTALS.entries()) {
    const sim = await startSimulator({ users: 30, takesPerUser: 2, seed: index + 1 });
    sims.push(sim);
    portals[name] = { baseUrl: sim.baseUrl, apiKeyFile: "key" };
  }
  await writeFile(join(dir, "key"), "demo-key\n", { mode: 0o600 });
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
});

afterAll(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
});

const extract = (args: string[], format: "human" | "json") =>
  collect(builtCli(["extract", ...args, "--log-format", format], dir));

const lines = (text: string) => text.split("\n").filter((line) => line !== "");

describe("log lines of portals extracted at once", () => {
  test("human format: every line starts its message with [NAME], each portal's progress its own", async () => {
    const run = await extract(["--all-portals", "--portals-at-once", "2"], "human");
    expect(run.code, run.stderr).toBe(0);
    const logged = lines(run.stderr);
    expect(logged.length).toBeGreaterThan(2);
    for (const line of logged) {
      expect(line).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z]+ +\[(north|south)\] /);
    }
    for (const name of PORTALS) {
      expect(logged.filter((l) => l.includes(`[${name}] extracted take `))).toHaveLength(1);
      // The summaries on stdout are each under their portal's heading and in the closing lines.
      expect(run.stdout).toContain(`== portal ${name}\n`);
      expect(run.stdout).toContain(`portal ${name}: done`);
    }
  });

  test("JSON: every line has a portal field, and a portal's progress lines carry its own", async () => {
    const run = await extract(["--all-portals", "--portals-at-once", "2"], "json");
    expect(run.code, run.stderr).toBe(0);
    const events = lines(run.stderr).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events.length).toBeGreaterThan(2);
    for (const event of events) expect(PORTALS).toContain(event.portal);
    for (const name of PORTALS) {
      const takes = events.filter((e) => e.msg === "extracted take" && e.portal === name);
      expect(takes, name).toHaveLength(1);
    }
  });

  test("one portal alone: lines as before, without a tag or a portal field", async () => {
    const human = await extract(["--portal", "north", "--incremental"], "human");
    expect(human.code, human.stderr).toBe(0);
    const logged = lines(human.stderr);
    expect(
      logged.some((l) => /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d INFO {2}extracted take /.test(l)),
    ).toBe(true);
    expect(human.stderr).not.toContain("[north]");

    const json = await extract(["--portal", "south", "--incremental"], "json");
    expect(json.code, json.stderr).toBe(0);
    for (const line of lines(json.stderr)) {
      expect(JSON.parse(line)).not.toHaveProperty("portal");
    }
  });
});
