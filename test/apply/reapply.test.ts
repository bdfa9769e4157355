/**
 * The same change file applied again after another file changed a field back: the change set is
 * the same (same bytes, same operation), but the local record no longer shows its edit, so the
 * edit is sent again instead of being counted as applied by the earlier run. Against the
 * simulator over real HTTP.
 */
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(67);
});
afterAll(async () => {
  await fx.close();
});

const statusOf = (id: number) => fx.sim.data.get("product_access", id)?.product_access_status;

it("a file applied again after another undid its edit sends the edit again", async () => {
  const id = fx.sim.data.list("product_access")[0]?.product_access_id as number;
  const header = "product_access_id,product_access_status";
  const leavers = await csvFile(fx.dir, "leavers-march.csv", [header, `${id},inactive`]);
  const rehire = await csvFile(fx.dir, "rehire.csv", [header, `${id},active`]);
  const op = ["--op", "product_access.edit", "--yes"];
  for (const path of [leavers, rehire]) {
    const run = await fx.run(["apply", path, ...op]);
    expect(run.code, run.stderr).toBe(0);
  }
  expect(statusOf(id)).toBe("active");

  const again = join(fx.dir, "leavers-april.csv");
  await copyFile(leavers, again);
  const dry = await fx.run(["apply", again, "--op", "product_access.edit", "--dry-run"]);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toContain("1 to change");
  const before = fx.writes();
  const run = await fx.run(["apply", again, ...op]);
  expect(run.code, run.stderr).toBe(0);
  expect(fx.writes() - before).toBe(1);
  expect(statusOf(id)).toBe("inactive");

  // Applied once more with nothing changed since: nothing is sent.
  const idle = await fx.run(["apply", again, ...op]);
  expect(idle.code, idle.stderr).toBe(0);
  expect(fx.writes() - before).toBe(1);
});

it("a file applied again with nothing changed since sends nothing, though the portal stored a value otherwise than sent", async () => {
  const id = fx.sim.data.list("product_access")[1]?.product_access_id as number;
  // The portal keeps whole seconds: the local record holds its answer, not the file's text.
  const path = await csvFile(fx.dir, "expiry.csv", [
    "product_access_id,product_access_expired_date",
    `${id},2027-03-31T12:00:00.123456Z`,
  ]);
  const op = ["--op", "product_access.edit", "--yes"];
  const first = await fx.run(["apply", path, ...op]);
  expect(first.code, first.stderr).toBe(0);
  const stored = fx.sim.data.get("product_access", id)?.product_access_expired_date;
  expect(Date.parse(String(stored))).toBe(Date.parse("2027-03-31T12:00:00Z"));
  const before = fx.writes();
  const dry = await fx.run(["apply", path, "--op", "product_access.edit", "--dry-run"]);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toContain("0 to change");
  const again = await fx.run(["apply", path, ...op]);
  expect(again.code, again.stderr).toBe(0);
  expect(fx.writes()).toBe(before);
});
