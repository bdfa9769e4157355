/**
 * `apply` sends with the Authorization form the portal accepted last time (kept by extract, apply
 * or check) and keeps one it learns: against a portal that takes only `Bearer <token>`, the
 * second apply sends no request the portal refuses. A simulated portal over real HTTP and a real
 * database file.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../roster/roster-cli.js";
import { csvFile, fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(53, 30);

describe("apply and the remembered Authorization form", () => {
  it("keeps the form a Bearer-only portal accepted and starts with it the next time", async () => {
    const fx = fixture();
    fx.sim.dialect.requireBearer = true;
    const env = { XDG_STATE_HOME: join(fx.dir, "state") };
    const forms = join(fx.dir, "state", "lms-export", "authorization-forms.json");
    const group = fx.sim.data.list("grp")[0];
    const edit = async (description: string) => {
      const path = await csvFile(fx.dir, "groups.csv", [
        "grp_id,grp_description",
        `${group?.grp_id},${description}`,
      ]);
      return cli(["apply", path, "--op", "grp.edit", "--yes", ...fx.flags], fx.dir, env);
    };

    const first = await edit("first description");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("1 applied");
    expect(fx.sim.stats.tokenRefusals).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(forms, "utf8"))).toEqual({ [fx.sim.baseUrl]: "Bearer" });

    const refusals = fx.sim.stats.tokenRefusals;
    const second = await edit("second description");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("1 applied");
    expect(fx.sim.stats.tokenRefusals).toBe(refusals);
  });
});
