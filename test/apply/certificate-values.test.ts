/**
 * `product_access_certificate` is a string whose `1` means a certificate was issued
 * (lms-api-v2.md), and the reports count one only where it is 1. A cell of `yes` or `true` is
 * sent as typed (a portal may take it) but warned about before the question: once extracted
 * again it would read as not issued. 1 and 0, as text or as a spreadsheet's numbers, and a
 * cleared cell get no warning.
 */
import { join } from "node:path";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { csvFile, fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(91, 200);

const records = () => fixture().sim.data.list("product_access").slice(0, 8);

describe("apply: certificate values the reports do not read", () => {
  it("warns once, naming the lines of values that are neither 1 nor 0", async () => {
    const fx = fixture();
    const values = ["1", "0", "yes", "true", " 1", "1", "0", "Y"];
    const rows = records().map((r, i) => `${r.product_access_id},${values[i]}`);
    const path = await csvFile(fx.dir, "certificates.csv", [
      "product_access_id,product_access_certificate",
      ...rows,
    ]);
    const dry = await fx.run(["apply", path, "--op", "product_access.edit", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(
      "3 cells in product_access_certificate are neither 1 nor 0 (lines 4, 5, 9): the reports count a certificate as issued only where it is 1, so they read as not issued; write 1 for issued, 0 for not",
    );
    expect(dry.stderr.match(/neither 1 nor 0/g)).toHaveLength(1);
  });

  it("a workbook's numbers 1 and 0 and a cleared cell get no warning", async () => {
    const fx = fixture();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Changes");
    sheet.addRow(["product_access_id", "product_access_certificate"]);
    const [a, b, c] = records();
    sheet.addRow([a?.product_access_id, 1]);
    sheet.addRow([b?.product_access_id, 0]);
    sheet.addRow([c?.product_access_id, "null"]);
    const path = join(fx.dir, "certificates.xlsx");
    await workbook.xlsx.writeFile(path);
    const dry = await fx.run(["apply", path, "--op", "product_access.edit", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).not.toContain("neither 1 nor 0");
  });
});
