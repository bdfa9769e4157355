/**
 * What a workbook holds beyond what its cells' text says: a hidden first sheet, hidden rows (by
 * hand or by a filter), merged data cells, and formulas the file saved no value of. Either would send something other than what the person sees, so the
 * file is refused, in one line, and nothing is sent.
 */
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeZeroSized } from "../helpers/zero-size-xlsx.js";
import { type ApplyFixture, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(67);
});
afterAll(async () => {
  await fx.close();
});

/** Runs apply on the workbook and expects a one-line refusal that sent nothing. */
async function refused(path: string, op: string): Promise<string> {
  const before = fx.writes();
  const result = await fx.run(["apply", path, "--op", op, "--yes"]);
  expect(result.code, result.stderr).toBe(2);
  expect(fx.writes()).toBe(before);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  return result.stderr;
}

describe("apply: workbook cells the sheet shows otherwise than the file reads", () => {
  it("a hidden first sheet is refused, not sent in place of the sheet on screen", async () => {
    const [a, b] = fx.sim.data.list("product_access");
    if (!a || !b) throw new Error("too few records");
    const workbook = new ExcelJS.Workbook();
    const old = workbook.addWorksheet("last month");
    old.state = "hidden";
    old.addRow(["product_access_id", "product_access_status"]);
    old.addRow([a.product_access_id, "expired"]);
    const shown = workbook.addWorksheet("changes");
    shown.addRow(["product_access_id", "product_access_status"]);
    shown.addRow([b.product_access_id, "inactive"]);
    const path = join(fx.dir, "hidden-first.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refused(path, "product_access.edit");
    expect(message).toContain('its first sheet "last month" is hidden');
    expect(message).toContain("unhide it");
    expect(fx.sim.data.get("product_access", a.product_access_id)?.product_access_status).toBe(
      a.product_access_status,
    );
  });

  it("a first sheet without the changes is named, and the sheet holding them is pointed to", async () => {
    const [g0] = fx.sim.data.list("grp");
    if (!g0) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Instructions").addRow(["How to fill in this file"]);
    const changes = workbook.addWorksheet("Changes");
    changes.addRow(["grp_id", "grp_description"]);
    changes.addRow([g0.grp_id, "from the second sheet"]);
    const path = join(fx.dir, "instructions-first.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refused(path, "grp.edit");
    expect(message).toContain('instructions-first.xlsx, sheet "Instructions": 2 problems');
    expect(message).toContain("header: no grp_id column");
    expect(message).toContain(
      'Sheet "Changes" has the columns grp.edit needs, but apply reads the first sheet: move "Changes" to the front of the workbook, save it and run apply again',
    );
    expect(fx.sim.data.get("grp", g0.grp_id)?.grp_description).toBe(g0.grp_description);

    // No sheet of the workbook has them: the sheet read is named, and no other is pointed to.
    changes.getCell("A1").value = "group";
    await workbook.xlsx.writeFile(path);
    const alone = await refused(path, "grp.edit");
    expect(alone).toContain('instructions-first.xlsx, sheet "Instructions": 2 problems');
    expect(alone).not.toContain("Changes");
    expect(alone).toContain("Fix the file and run apply again");
  });

  it("a first sheet with the id column but no column to set points to the sheet that has them", async () => {
    const [g0] = fx.sim.data.list("grp");
    if (!g0) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    const notes = workbook.addWorksheet("Instructions");
    notes.addRow(["grp_id", "what to type"]);
    notes.addRow(["the group's id", "one row per group"]);
    const changes = workbook.addWorksheet("Changes");
    changes.addRow(["grp_id", "grp_description"]);
    changes.addRow([g0.grp_id, "from the second sheet"]);
    const path = join(fx.dir, "id-only-first.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refused(path, "grp.edit");
    expect(message).toContain('id-only-first.xlsx, sheet "Instructions"');
    expect(message).toContain(
      'Sheet "Instructions" lacks a column of a field to set. Sheet "Changes" has the columns grp.edit needs, but apply reads the first sheet: move "Changes" to the front of the workbook, save it and run apply again',
    );
    expect(fx.sim.data.get("grp", g0.grp_id)?.grp_description).toBe(g0.grp_description);
  });

  it("a first sheet of valid ids alone is refused, not applied as unchanged, and the changes pointed to", async () => {
    const [u0] = fx.sim.data.list("user");
    if (!u0) throw new Error("too few users");
    const workbook = new ExcelJS.Workbook();
    const ids = workbook.addWorksheet("Ids");
    ids.addRow(["user_id"]);
    ids.addRow([u0.user_id]);
    const changes = workbook.addWorksheet("Changes");
    changes.addRow(["user_id", "user_organisation_identifier"]);
    changes.addRow([u0.user_id, "from the second sheet"]);
    const path = join(fx.dir, "ids-first.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refused(path, "user.edit");
    expect(message).toContain('ids-first.xlsx, sheet "Ids": 1 problem');
    expect(message).toContain(
      "no column of a field to set; user.edit sets user_organisation_identifier",
    );
    expect(message).toContain('move "Changes" to the front of the workbook');
    expect(fx.sim.data.get("user", u0.user_id)?.user_organisation_identifier).toBe(
      u0.user_organisation_identifier,
    );
  });

  it("a formula with no saved value is refused, not read as a blank that leaves the field", async () => {
    const [g0, g1] = fx.sim.data.list("grp");
    if (!g0 || !g1) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("changes");
    sheet.addRow(["grp_id", "grp_name", "grp_external_id"]);
    // As a program that writes formulas without calculating them saves them: no result.
    sheet.addRow([g0.grp_id, { formula: 'CONCAT("North-",A2)' }, "n-1"]);
    // A result saved with the formula is the value, as before.
    sheet.addRow([g1.grp_id, { formula: '"South"', result: "South" }, null]);
    const path = join(fx.dir, "uncalculated.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refused(path, "grp.edit");
    expect(message).toContain("1 problem");
    expect(message).toContain(
      'row 2: column "grp_name" holds the formula =CONCAT("North-",A2) with no saved value',
    );
    expect(message).toContain("open the workbook in a spreadsheet and save it");
  });

  it("hidden rows are refused, naming them, not sent beside the rows on screen", async () => {
    const [g0, g1, g2] = fx.sim.data.list("grp");
    if (!g0 || !g1 || !g2) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("changes");
    sheet.addRow(["grp_id", "grp_description"]);
    sheet.addRow([g0.grp_id, "seen"]);
    // Hidden by hand, and as a filter leaves rows out: both are `hidden` on the row.
    sheet.addRow([g1.grp_id, "hidden by hand"]).hidden = true;
    sheet.addRow([g2.grp_id, "filtered out"]).hidden = true;
    const path = join(fx.dir, "hidden-rows.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refused(path, "grp.edit");
    expect(message).toContain("2 problems");
    expect(message).toContain("row 3: the sheet hides this row");
    expect(message).toContain("row 4: the sheet hides this row");
    expect(fx.sim.data.get("grp", g1.grp_id)?.grp_description).toBe(g1.grp_description);
  });

  it("a row of zero height and a column of zero width are refused as hidden ones are", async () => {
    const [g0, g1] = fx.sim.data.list("grp");
    if (!g0 || !g1) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("changes");
    sheet.addRow(["grp_id", "grp_description", "grp_external_name"]);
    sheet.addRow([g0.grp_id, "seen", null]);
    sheet.addRow([g1.grp_id, "dragged shut", null]);
    const path = join(fx.dir, "zero-size.xlsx");
    // Shut by dragging the border: no `hidden` on them, a size of 0 (see the helper).
    await writeZeroSized(workbook, path, { rows: [3], columns: [3] });
    const message = await refused(path, "grp.edit");
    expect(message).toContain("2 problems");
    expect(message).toContain(
      'header: column "grp_external_name" is hidden in the sheet, and what it holds would be sent unseen',
    );
    expect(message).toContain("row 3: the sheet hides this row");
    expect(fx.sim.data.get("grp", g1.grp_id)?.grp_description).toBe(g1.grp_description);
  });

  it("merged data cells are refused, naming the ranges: a merge shows one value, the file gives it to every cell", async () => {
    const [g0, g1, g2] = fx.sim.data.list("grp");
    if (!g0 || !g1 || !g2) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("changes");
    sheet.addRow(["grp_id", "grp_description", "grp_external_name"]);
    sheet.addRow([g0.grp_id, "Only description", null]);
    sheet.addRow([g1.grp_id, "Down", "x"]);
    sheet.addRow([g2.grp_id, null, "y"]);
    // Across: the description would be sent as grp_external_name too; down: copied to g2.
    sheet.mergeCells("B2:C2");
    sheet.mergeCells("B3:B4");
    const path = join(fx.dir, "merged.xlsx");
    await workbook.xlsx.writeFile(path);
    for (const extra of [["--dry-run"], []]) {
      const before = fx.writes();
      const result = await fx.run(["apply", path, "--op", "grp.edit", "--yes", ...extra]);
      expect(result.code, result.stderr).toBe(2);
      expect(fx.writes()).toBe(before);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain("2 problems");
      expect(result.stderr).toContain("row 2: cells B2:C2 are merged");
      expect(result.stderr).toContain("row 3: cells B3:B4 are merged");
      expect(result.stderr).toContain("unmerge");
    }
    expect(fx.sim.data.get("grp", g0.grp_id)?.grp_external_name).toBe(g0.grp_external_name);
    expect(fx.sim.data.get("grp", g2.grp_id)?.grp_description).toBe(g2.grp_description);
  });

  it("a merged header cell alone is the header's own problem, not a merged data range", async () => {
    const [g0] = fx.sim.data.list("grp");
    if (!g0) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("changes");
    sheet.addRow(["grp_id", "grp_description", null]);
    sheet.addRow([g0.grp_id, "d", null]);
    sheet.mergeCells("B1:C1");
    const path = join(fx.dir, "merged-header.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refused(path, "grp.edit");
    expect(message).toContain("both name grp_description");
    expect(message).not.toContain("are merged");
  });

  it("a date or TRUE/FALSE cell in a text field is refused: its text is not what was typed", async () => {
    const [g0, g1] = fx.sim.data.list("grp");
    if (!g0 || !g1) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("changes");
    sheet.addRow(["grp_id", "grp_external_id"]);
    // What Excel makes of "1-2" typed into a General cell.
    const typed = sheet.addRow([g0.grp_id, new Date(Date.UTC(2026, 1, 1))]);
    typed.getCell(2).numFmt = "d-mmm";
    sheet.addRow([g1.grp_id, true]);
    const path = join(fx.dir, "typed-cells.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refused(path, "grp.edit");
    expect(message).toContain(
      'row 2: grp_external_id is text, but column "grp_external_id" holds a date cell (2026-02-01 formatted "d-mmm"), which may not be what was typed',
    );
    expect(message).toContain(
      'row 3: grp_external_id is text, but column "grp_external_id" holds a boolean cell (true)',
    );
    expect(fx.sim.data.get("grp", g0.grp_id)?.grp_external_id).toBe(g0.grp_external_id);
  });

  it("a hidden column is refused too; unused columns hidden past the header are not", async () => {
    const [g0] = fx.sim.data.list("grp");
    if (!g0) throw new Error("too few groups");
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("changes");
    sheet.addRow(["grp_id", "grp_description", "grp_external_name"]);
    sheet.addRow([g0.grp_id, "seen", "not seen"]);
    sheet.getColumn(3).hidden = true;
    const path = join(fx.dir, "hidden-column.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refused(path, "grp.edit");
    expect(message).toContain(
      'header: column "grp_external_name" is hidden in the sheet, and what it holds would be sent unseen',
    );
    expect(fx.sim.data.get("grp", g0.grp_id)?.grp_external_name).toBe(g0.grp_external_name);

    sheet.getColumn(3).hidden = false;
    for (let column = 4; column <= 30; column++) sheet.getColumn(column).hidden = true;
    await workbook.xlsx.writeFile(path);
    const dry = await fx.run(["apply", path, "--op", "grp.edit", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
  });
});
