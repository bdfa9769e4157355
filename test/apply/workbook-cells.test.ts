/**
 * What a workbook holds beyond what its cells' text says: a hidden first sheet would send
 * something other than what the person sees, so the file is refused, in one line, and nothing is
 * sent.
 */
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
});
