/**
 * A report's group_id naming no group, with --portal or --all-portals (README "Several
 * portals"): the error's command listing the groups names the database the report read, each
 * portal's with --all-portals, and works as given. Real simulated portals over HTTP and real
 * databases, in-process through main().
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RunningSimulator } from "../../src/simulator/server.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { twoExtractedPortals } from "../helpers/two-portals.js";

const dir = tempDirForFile("lms-portals-group-hint-");
const sims: RunningSimulator[] = [];
const cli = (args: string[]) => runCli(dir, args);

beforeAll(async () => {
  sims.push(...(await twoExtractedPortals(dir)));
});

afterAll(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
});

/** The `lms-export sql --db DB "SELECT ..."` commands of a message, as argv. */
function sqlCommands(message: string): string[][] {
  return [...message.matchAll(/lms-export sql --db (\S+) "([^"]+)"/g)].map((m) => [
    "sql",
    "--db",
    m[1] ?? "",
    m[2] ?? "",
    "--format",
    "csv",
  ]);
}

test.each([
  ["--portal north", ["--portal", "north"], ["north"]],
  ["--all-portals", ["--all-portals"], ["north", "south"]],
])(
  "with %s the hint's sql command names each database read, and runs",
  async (_, extra, portals) => {
    const args = ["report", "compliance", ...extra, "--param", "group_id=999999"];
    const result = await cli([...args, "--format", "csv"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("no group with id 999999");
    const commands = sqlCommands(result.stderr);
    expect(commands).toHaveLength(portals.length);
    for (const [i, command] of commands.entries()) {
      if (portals.length > 1) expect(result.stderr).toContain(`(portal ${portals[i]})`);
      const listed = await cli(command);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout.split("\r\n")[0]).toBe("grp_id,grp_name");
      expect(listed.stdout.trim().split("\n").length).toBeGreaterThan(1);
    }
  },
);
