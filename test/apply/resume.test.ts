/**
 * `apply` killed with SIGKILL part-way (a slow portal keeps it mid-way), then run again: only the
 * rows not yet applied are sent, no link is made twice, and the portal ends as one clean apply
 * would leave it.
 */
import { existsSync } from "node:fs";
import { appendFile } from "node:fs/promises";
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

/** Requests the simulator received for `operation` so far. */
const requests = (operation: string) => fx.sim.stats.byOperation.get(operation) ?? 0;

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
    const has = (u: number) => fx.linksOf(u, group);
    const intake = fx.outsiders(group, 60);
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

  it("product_access.edit: the rerun sends again only the rows under way at the kill", async () => {
    // Fast enough that many rows are confirmed between two batch writes into the database.
    fx.sim.faults.latencyMs = 10;
    const access = fx.sim.data.list("product_access").slice(100, 220);
    const path = await csvFile(fx.dir, "extend.csv", [
      "product_access_id,product_access_expired_date",
      ...access.map((r) => `${r.product_access_id},2028-01-01T10:00:00Z`),
    ]);
    const args = ["apply", path, "--op", "product_access.edit", "--yes", "--max-changes", "1000"];
    const start = requests("product_access/edit");
    await killMidway(args, 60);
    const journalLeft = existsSync(`${fx.db}.apply-journal`);
    fx.sim.faults.latencyMs = 0;
    const resumed = await fx.run(args);
    expect(resumed.code, resumed.stderr).toBe(0);
    // Every confirmed edit was on record: only the 2 rows under way at once can go twice.
    expect(requests("product_access/edit") - start).toBeLessThanOrEqual(access.length + 2);
    for (const r of access) {
      const now = fx.sim.data.get("product_access", r.product_access_id);
      expect(Date.parse(String(now?.product_access_expired_date))).toBe(
        Date.parse("2028-01-01T10:00:00Z"),
      );
    }
    const applied = await query(
      fx.db,
      "SELECT count(DISTINCT line)::INT AS n FROM _changes WHERE file = 'extend.csv' AND outcome = 'applied'",
    );
    expect(applied).toEqual([{ n: access.length }]);
    // The killed run left its journal; the rerun took it in and removed its own.
    expect(journalLeft).toBe(true);
    expect(existsSync(`${fx.db}.apply-journal`)).toBe(false);
  });

  it("user_grp.create: after a kill and an edit of the file, no link is asked for twice", async () => {
    fx.sim.faults.latencyMs = 40;
    const group = fx.sim.data.list("grp").at(-2)?.grp_id as number;
    const intake = fx.outsiders(group, 41);
    const path = await csvFile(fx.dir, "intake-edited.csv", [
      "user_grp_user_id,user_grp_grp_id",
      ...intake.slice(0, 40).map((u) => `${u},${group}`),
    ]);
    const args = ["apply", path, "--op", "user_grp.create", "--yes"];
    await killMidway(args, 15);
    // One more person: a new file, so a new change set that no earlier run started.
    await appendFile(path, `${intake[40]},${group}\n`);
    fx.sim.faults.latencyMs = 0;
    const links = fx.sim.data.count("user_grp");
    const creates = requests("user_grp/create");
    const rerun = await fx.run(args);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain("0 failed");
    // Each create sent made a link: none was refused as one the portal already had.
    expect(requests("user_grp/create") - creates).toBe(fx.sim.data.count("user_grp") - links);
    for (const u of intake) expect(fx.linksOf(u, group)).toBe(1);
  });
});
