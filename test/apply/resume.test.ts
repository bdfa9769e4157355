/**
 * `apply` killed with SIGKILL part-way (a slow portal keeps it mid-way), then run again: only the
 * rows not yet applied are sent, no link is made twice, and the portal ends as one clean apply
 * would leave it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, spawnCli } from "../helpers/spawn-cli.js";
import { query } from "../roster/roster-cli.js";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(53);
});
afterAll(async () => {
  await fx.close();
});

/** Starts apply in a child, kills it with SIGKILL once `writes` writes arrived. */
async function killMidway(args: string[], writes: number): Promise<void> {
  const start = fx.writes();
  const child = spawnCli([...args, ...fx.flags, "--concurrency", "2"]);
  const done = collect(child);
  while (fx.writes() - start < writes && child.exitCode === null) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  child.kill("SIGKILL");
  const killed = await done;
  expect(killed.code, killed.stderr).toBeNull();
}

describe("apply after kill -9", () => {
  it("user_grp.create: the rerun sends the rest and makes no link twice", async () => {
    fx.sim.faults.latencyMs = 40;
    const group = fx.sim.data.list("grp").at(-1)?.grp_id as number;
    const has = (u: number) =>
      fx.sim.data
        .list("user_grp")
        .filter((l) => l.user_grp_user_id === u && l.user_grp_grp_id === group).length;
    const intake = fx.sim.data
      .userIds()
      .filter((u) => has(u) === 0)
      .slice(0, 60);
    const linksBefore = fx.sim.data.count("user_grp");
    const path = await csvFile(fx.dir, "intake.csv", [
      "user_grp_user_id,user_grp_grp_id",
      ...intake.map((u) => `${u},${group}`),
    ]);
    const args = ["apply", path, "--op", "user_grp.create", "--yes"];
    await killMidway(args, 20);
    const sentBefore = fx.writes();
    const createdBeforeResume = fx.sim.data.count("user_grp") - linksBefore;
    expect(createdBeforeResume).toBeGreaterThanOrEqual(20);
    expect(createdBeforeResume).toBeLessThan(60);

    fx.sim.faults.latencyMs = 0;
    const resumed = await fx.run([...args, "--resume"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    // Only the rows the killed run had not applied were sent again.
    expect(fx.writes() - sentBefore).toBeLessThanOrEqual(60 - createdBeforeResume + 2);
    for (const u of intake) expect(has(u)).toBe(1);
    expect(fx.sim.data.count("user_grp")).toBe(linksBefore + 60);

    const applied = await query(
      fx.db,
      "SELECT count(DISTINCT line)::INT AS n FROM _changes WHERE op = 'user_grp.create' AND outcome = 'applied'",
    );
    expect(applied).toEqual([{ n: 60 }]);
    const results = await query(
      fx.db,
      `SELECT outcome, count(*)::INT AS n FROM read_csv('${path}.results.csv', header = true, all_varchar = true) GROUP BY outcome`,
    );
    expect(results).toEqual([{ outcome: "applied", n: 60 }]);
    const again = await fx.run([...args.slice(0, 4), "--dry-run"]);
    expect(again.stdout).toContain("0 to change");
  });

  it("product_access.edit: the rerun finishes the edits; the portal equals the file", async () => {
    fx.sim.faults.latencyMs = 40;
    const access = fx.sim.data.list("product_access").slice(0, 60);
    const path = await csvFile(fx.dir, "expire.csv", [
      "product_access_id,product_access_status,product_access_expired_date",
      ...access.map((r) => `${r.product_access_id},expired,2026-05-31T12:00:00Z`),
    ]);
    const args = ["apply", path, "--op", "product_access.edit", "--yes"];
    await killMidway(args, 25);
    fx.sim.faults.latencyMs = 0;
    const resumed = await fx.run(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const r of access) {
      const now = fx.sim.data.get("product_access", r.product_access_id);
      expect(now?.product_access_status).toBe("expired");
      expect(Date.parse(String(now?.product_access_expired_date))).toBe(
        Date.parse("2026-05-31T12:00:00Z"),
      );
    }
    const local = await query(
      fx.db,
      `SELECT count(*)::INT AS n FROM product_access WHERE product_access_status = 'expired' AND product_access_expired_date = TIMESTAMP '2026-05-31 12:00:00' AND product_access_id <= ${access.at(-1)?.product_access_id}`,
    );
    expect(local).toEqual([{ n: 60 }]);
  });
});
