/**
 * Text that begins or ends with spaces (`Sales `) is sent as typed, since the portal may hold
 * such names, but a sheet hides the spaces: the plan warns once per field, naming the first few
 * lines. Rows that send nothing (unchanged) are not counted.
 */
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(89, 300);
});
afterAll(async () => {
  await fx.close();
});

const nameOf = (id: number) => fx.sim.data.get("grp", id)?.grp_name;

describe("apply: text with spaces at either end", () => {
  it("CSV: one note per field before the question, values sent as typed, none once unchanged", async () => {
    const groups = fx.sim.data.list("grp").slice(0, 7);
    if (groups.length < 7) throw new Error("too few groups");
    const names = groups.map((g, i) => (i < 3 ? `${g.grp_name} ` : i < 6 ? ` Team ${i}` : `T${i}`));
    const rows = groups.map((g, i) => `${g.grp_id},"${names[i]}",${i === 1 ? "Kept  " : ""}`);
    const path = await csvFile(fx.dir, "spaced.csv", ["grp_id,grp_name,grp_description", ...rows]);
    const args = ["apply", path, "--op", "grp.edit"];
    const dry = await fx.run([...args, "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(
      "6 cells in grp_name begin or end with spaces (lines 2, 3, 4, 5, 6, …); they are sent as typed",
    );
    expect(dry.stderr).toContain(
      "1 cell in grp_description begins or ends with spaces (line 3); it is sent as typed",
    );
    expect(dry.stderr.match(/in grp_name begin/g)).toHaveLength(1);

    const applied = await fx.run([...args, "--yes"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain("6 cells in grp_name begin or end with spaces");
    groups.forEach((g, i) => {
      expect(nameOf(g.grp_id)).toBe(names[i]);
    });
    expect(fx.sim.data.get("grp", groups[1]?.grp_id as number)?.grp_description).toBe("Kept  ");

    // The portal now holds the names with their spaces, and so does the local copy: the same
    // rows in another file (another change set) send nothing, so there is nothing to warn about.
    const same = await csvFile(fx.dir, "same.csv", ["Grp ID,Grp Name,Grp Description", ...rows]);
    const writes = fx.writes();
    const again = await fx.run(["apply", same, "--op", "grp.edit", "--yes"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("0 applied, 7 unchanged");
    expect(fx.writes()).toBe(writes);
    expect(again.stderr).not.toContain("begin or end with spaces");
  });

  it("a workbook: the row numbered as in the sheet", async () => {
    const g = fx.sim.data.list("grp")[8];
    if (!g) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Changes");
    sheet.addRow(["grp_id", "grp_name"]);
    sheet.addRow([g.grp_id, "Sales "]);
    const path = join(fx.dir, "spaced.xlsx");
    await workbook.xlsx.writeFile(path);
    const applied = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stderr).toContain(
      "1 cell in grp_name begins or ends with spaces (row 2); it is sent as typed",
    );
    expect(nameOf(g.grp_id)).toBe("Sales ");
  });
});
