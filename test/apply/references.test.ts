/**
 * The records an edit's fields name: a group put under itself or one of its own subgroups is a
 * problem of the file (nothing sent), and a parent group or product the local database does not
 * know is warned about, refused with --strict, as a create's user and group are. Against the
 * simulator over real HTTP, after a real extract.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(73, 300);
});
afterAll(async () => {
  await fx.close();
});

const edit = ["--op", "grp.edit", "--yes"];

it("refuses a file that would put a group under itself or its own subgroup, sending nothing", async () => {
  const groups = fx.sim.data.list("grp");
  const child = groups.find((g) => g.grp_parent_id !== null);
  expect(child).toBeDefined();
  const parent = Number(child?.grp_parent_id);
  const alone = groups.find((g) => g.grp_id !== parent && g.grp_id !== child?.grp_id);
  const path = await csvFile(fx.dir, "loops.csv", [
    "grp_id,grp_parent_id,grp_description",
    `${parent},${child?.grp_id},moved under its own subgroup`,
    `${alone?.grp_id},${alone?.grp_id},under itself`,
  ]);
  const before = fx.writes();
  const run = await fx.run(["apply", path, ...edit]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(
    `line 2: grp_parent_id ${child?.grp_id} would make group ${parent} its own ancestor`,
  );
  expect(run.stderr).toContain(
    `line 3: grp_parent_id ${alone?.grp_id} would make group ${alone?.grp_id} its own ancestor`,
  );
  expect(fx.writes()).toBe(before);
});

it("warns of a parent group or product the database does not know, and --strict refuses it", async () => {
  const group = fx.sim.data.list("grp")[0]?.grp_id as number;
  const access = fx.sim.data.list("product_access")[0]?.product_access_id as number;
  const groups = await csvFile(fx.dir, "parents.csv", ["grp_id,grp_parent_id", `${group},987654`]);
  const products = await csvFile(fx.dir, "products.csv", [
    "product_access_id,product_access_product_id",
    `${access},876543`,
  ]);
  const before = fx.writes();
  const strict = await fx.run(["apply", groups, ...edit, "--strict"]);
  expect(strict.code).toBe(2);
  expect(strict.stderr).toContain(
    "line 2: grp_parent_id 987654 names no group in the local database",
  );
  const access2 = await fx.run([
    "apply",
    products,
    "--op",
    "product_access.edit",
    "--yes",
    "--strict",
  ]);
  expect(access2.code).toBe(2);
  expect(access2.stderr).toContain(
    "line 2: product_access_product_id 876543 names no product in the local database",
  );
  expect(fx.writes()).toBe(before);
  const dry = await fx.run(["apply", groups, "--op", "grp.edit", "--dry-run"]);
  expect(dry.code, dry.stderr).toBe(0);
  expect(dry.stderr).toContain("grp_parent_id 987654 names no group in the local database");
});
