/**
 * The change file's path: a leading "~/" is the home folder, as in every path setting, and
 * messages name the file with its folder (relative to the working folder when inside it), so a
 * file looked for in the wrong folder shows which. The change set keeps the file's name alone.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { cli } from "../roster/roster-cli.js";
import { type ApplyFixture, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(37, 40);
});
afterAll(async () => {
  await fx.close();
});

describe("apply FILE", () => {
  test("~/ is the home folder", async () => {
    const home = join(fx.dir, "home");
    await mkdir(home);
    const group = fx.sim.data.list("grp")[0];
    await writeFile(join(home, "groups.csv"), `grp_id,grp_description\n${group?.grp_id},home\n`);
    const run = await cli(
      ["apply", "~/groups.csv", "--op", "grp.edit", "--dry-run", ...fx.flags],
      fx.dir,
      { HOME: home },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`grp ${group?.grp_id}  grp_description: `);
    expect(run.stdout).toContain('→ "home"');
  });

  test("a file that is not there is named with its folder", async () => {
    const missing = join(fx.dir, "elsewhere", "nope.csv");
    const run = await cli(["apply", missing, "--op", "grp.edit", "--dry-run", ...fx.flags], fx.dir);
    expect(run.code).toBe(2);
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(
      "lms-export: elsewhere/nope.csv does not exist",
    );
  });
});
