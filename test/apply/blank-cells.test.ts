/**
 * A cell that holds only spaces (or a tab) shows blank in a spreadsheet, and a CSV row of them is
 * skipped as blank: in a change file it leaves the field as it is, like an empty cell, in CSV,
 * JSON lines and workbooks alike. It must not set a group's name to spaces (a name `null` may not
 * clear), nor fail an integer field as "not an integer".
 */
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(71);
});
afterAll(async () => {
  await fx.close();
});

const groups = () => fx.sim.data.list("grp");

describe("apply: a cell of spaces is a blank cell", () => {
  it("CSV: spaces leave a text and an integer field; the other cells of the row are sent", async () => {
    const [g0, g1] = groups();
    if (!g0 || !g1) throw new Error("too few groups");
    const path = await csvFile(fx.dir, "spaces.csv", [
      "grp_id,grp_name,grp_parent_id,grp_description",
      `${g0.grp_id},   ,  ,Spaces elsewhere`,
      // A zero-width space shows nothing either.
      `${g1.grp_id},\t\u200b, ,`,
    ]);
    const before = fx.writes();
    const dry = await fx.run(["apply", path, "--op", "grp.edit", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).not.toContain("grp_name");
    expect(dry.stdout).toContain("dry run: 2 rows: 1 to change, 1 unchanged");

    const applied = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(fx.writes() - before).toBe(1);
    const now0 = fx.sim.data.get("grp", g0.grp_id);
    expect(now0?.grp_name).toBe(g0.grp_name);
    expect(now0?.grp_parent_id).toBe(g0.grp_parent_id);
    expect(now0?.grp_description).toBe("Spaces elsewhere");
    expect(fx.sim.data.get("grp", g1.grp_id)?.grp_name).toBe(g1.grp_name);
  });

  it("JSON lines and a workbook: a value of spaces leaves the field", async () => {
    const g = groups()[2];
    if (!g) throw new Error("too few groups");
    const jsonl = await csvFile(fx.dir, "spaces.jsonl", [
      JSON.stringify({ grp_id: g.grp_id, grp_name: "  ", grp_external_name: " " }),
    ]);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Changes");
    sheet.addRow(["grp_id", "grp_name", "grp_external_id"]);
    sheet.addRow([g.grp_id, "   ", " "]);
    const xlsx = join(fx.dir, "spaces.xlsx");
    await workbook.xlsx.writeFile(xlsx);
    const before = fx.writes();
    for (const path of [jsonl, xlsx]) {
      const result = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain("0 applied, 1 unchanged");
    }
    expect(fx.writes()).toBe(before);
    expect(fx.sim.data.get("grp", g.grp_id)?.grp_name).toBe(g.grp_name);
  });

  it("CSV: an empty column without a header (Excel's trailing commas) is no field; a value in it is a problem", async () => {
    const [g0, g1] = groups();
    if (!g0 || !g1) throw new Error("too few groups");
    const path = await csvFile(fx.dir, "trailing.csv", [
      "grp_id,grp_description,,",
      `${g0.grp_id},Trailing commas,,`,
      `${g1.grp_id},Also,, `,
    ]);
    const before = fx.writes();
    const applied = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(fx.writes() - before).toBe(2);
    expect(fx.sim.data.get("grp", g0.grp_id)?.grp_description).toBe("Trailing commas");

    const valued = await csvFile(fx.dir, "unnamed.csv", [
      "grp_id,grp_description,",
      `${g0.grp_id},Again,note to self`,
    ]);
    const refused = await fx.run(["apply", valued, "--op", "grp.edit", "--yes"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain('line 2: column 3 has no header but holds "note to self"');
    expect(fx.writes() - before).toBe(2);
  });
});
