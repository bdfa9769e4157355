/**
 * A file applied again with nothing changed since, against a portal that answers dates in mixed
 * shapes (epoch seconds as a number or as text, offsets, `YYYY-MM-DD HH:MM:SS`) and keeps whole
 * seconds: the earlier run's answers are compared with the local record as instants, so none of
 * the rows is taken for changed since and sent again. Against the simulator over real HTTP.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(71);
  // Only the answers change shape: the extract above read the standard one.
  fx.sim.dialect.looseValues = true;
});
afterAll(async () => {
  await fx.close();
});

it("a file applied again sends nothing when the portal answered its dates as epoch seconds", async () => {
  const ids = fx.sim.data
    .list("product_access")
    .slice(0, 12)
    .map((record) => record.product_access_id as number);
  // Each row its own instant, so the answers come in each of the shapes; a fraction the portal
  // drops makes the stored value differ from the file's text.
  const path = await csvFile(fx.dir, "expiry-loose.csv", [
    "product_access_id,product_access_expired_date",
    ...ids.map((id, i) => `${id},2027-04-${String(i + 1).padStart(2, "0")}T09:15:30.250Z`),
  ]);
  const op = ["--op", "product_access.edit"];
  const first = await fx.run(["apply", path, ...op, "--yes"]);
  expect(first.code, first.stderr).toBe(0);
  const before = fx.writes();
  const dry = await fx.run(["apply", path, ...op, "--dry-run"]);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stdout).toContain(`0 to change, 0 unchanged, ${ids.length} applied by an earlier run`);
  const again = await fx.run(["apply", path, ...op, "--yes"]);
  expect(again.code, again.stderr).toBe(0);
  expect(fx.writes()).toBe(before);
});
