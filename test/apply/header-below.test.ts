/**
 * A sheet with a title row above its column names: the first row is read as the header, and the
 * error listed every column as "not a writable field", which says nothing of the fix. The row a
 * little below that names every column the operation needs is the header: the error says where it
 * is and what to do, and nothing is sent. Data rows never qualify (they hold values, not names),
 * so a file merely misspelt still gets its list.
 */
import { join } from "node:path";
import ExcelJS from "exceljs";
import { expect, it } from "vitest";
import { csvFile, fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(97, 100);

const groups = () => fixture().sim.data.list("grp").slice(0, 3);

it("a workbook with a title row: the error names the row the column names are on", async () => {
  const fx = fixture();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Changes");
  sheet.addRow(["Group changes, March"]);
  sheet.addRow([]);
  sheet.addRow(["Grp ID", "Grp Name"]);
  for (const g of groups()) sheet.addRow([g.grp_id, `${g.grp_name} (renamed)`]);
  const path = join(fx.dir, "titled.xlsx");
  await workbook.xlsx.writeFile(path);
  const before = fx.writes();
  const result = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(
    'titled.xlsx, sheet "Changes": the column names are on row 3, but apply reads the first row (1) as the header, so nothing was sent. Delete the rows above 3, save the file and run apply again',
  );
  expect(result.stderr).not.toContain("not a writable field");
  expect(fx.writes()).toBe(before);
});

it("a CSV with a title line, and a CSV merely misspelt", async () => {
  const fx = fixture();
  const rows = groups().map((g) => `${g.grp_id},${g.grp_name}`);
  const titled = await csvFile(fx.dir, "titled.csv", ["Changes", "grp_id,grp_name", ...rows]);
  const result = await fx.run(["apply", titled, "--op", "grp.edit", "--yes"]);
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(
    "the column names are on line 2, but apply reads the first line (1)",
  );
  const misspelt = await csvFile(fx.dir, "misspelt.csv", ["grp_id,grp_nmae", ...rows]);
  const other = await fx.run(["apply", misspelt, "--op", "grp.edit", "--yes"]);
  expect(other.code).toBe(2);
  expect(other.stderr).toContain("did you mean grp_name?");
  expect(other.stderr).not.toContain("the column names are on");
});
