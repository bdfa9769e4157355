/**
 * A control character in text a change would send (a NUL or an escape from another system's
 * export) is refused with its row, field and place before anything is sent; tab and line breaks
 * pass. A value the portal already holds with one, copied back unchanged, is not sent and not
 * refused. Real HTTP to the simulator, a real DuckDB file.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(97, 100);
});
afterAll(async () => {
  await fx.close();
});

const group = (index: number) => {
  const found = fx.sim.data.list("grp")[index];
  if (found === undefined) throw new Error("too few groups");
  return found;
};

it("refuses sent text holding a control character, naming each cell, and sends nothing", async () => {
  const [a, b, c] = [group(0), group(1), group(2)];
  const path = await csvFile(fx.dir, "controls.csv", [
    "grp_id,grp_name,grp_description",
    `${a.grp_id},"Sales\u0000 EMEA",`,
    `${b.grp_id},Support,"tabbed\there"`,
    `${c.grp_id},"\u001b[1mOps","two\nlines"`,
  ]);
  const writes = fx.writes();
  const run = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain(
    `controls.csv: 2 problems, nothing was sent: line 2: grp_name holds the control character U+0000 at character 6, which no sheet shows and a portal may store cut or refuse; remove it; line 4: grp_name holds the control character U+001B at character 1,`,
  );
  expect(run.stderr).not.toContain("line 3:");
  expect(fx.writes()).toBe(writes);
  expect(fx.sim.data.get("grp", a.grp_id)?.grp_name).toBe(a.grp_name);

  // Without them the same rows apply, the tab and the line break sent as typed.
  const clean = await csvFile(fx.dir, "clean.csv", [
    "grp_id,grp_name,grp_description",
    `${b.grp_id},Support,"tabbed\there"`,
    `${c.grp_id},Ops,"two\nlines"`,
  ]);
  const applied = await fx.run(["apply", clean, "--op", "grp.edit", "--yes"]);
  expect(applied.code, applied.stderr).toBe(0);
  expect(fx.sim.data.get("grp", b.grp_id)?.grp_description).toBe("tabbed\there");
  expect(fx.sim.data.get("grp", c.grp_id)?.grp_description).toBe("two\nlines");
});

it("sends a row whose control character is in a value the portal already holds", async () => {
  const held = group(3);
  fx.sim.data.edit("grp", held.grp_id, { grp_name: "Legacy\u0001Team" });
  expect((await fx.run(["extract"])).code).toBe(0);
  const path = await csvFile(fx.dir, "held.csv", [
    "grp_id,grp_name,grp_description",
    `${held.grp_id},"Legacy\u0001Team",Renamed elsewhere`,
  ]);
  const run = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
  expect(run.code, run.stderr).toBe(0);
  expect(fx.sim.data.get("grp", held.grp_id)).toMatchObject({
    grp_name: "Legacy\u0001Team",
    grp_description: "Renamed elsewhere",
  });
});
