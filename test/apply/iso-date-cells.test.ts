/**
 * A workbook may write a date cell as ISO 8601 text (`<c t="d">`, as the Strict format and some
 * programs save dates) rather than as a serial number. Such a cell is the date its text says: not
 * its year alone read as a serial day (2027 under a date format is 1905-07-19).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { craftWorkbook } from "../tabular/xlsx-workbooks.js";
import { fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(83, 60);

describe("apply: ISO date cells of a workbook", () => {
  it("sends the date and time the cell holds, under a date format or none", async () => {
    const fx = fixture();
    const [a, b] = fx.sim.data.list("product_access");
    if (!a || !b) throw new Error("too few records");
    const bytes = await craftWorkbook({
      sheets: [
        {
          name: "changes",
          xml:
            "<sheetData>" +
            '<row r="1"><c r="A1" t="inlineStr"><is><t>product_access_id</t></is></c>' +
            '<c r="B1" t="inlineStr"><is><t>product_access_expired_date</t></is></c></row>' +
            `<row r="2"><c r="A2"><v>${a.product_access_id}</v></c>` +
            '<c r="B2" s="1" t="d"><v>2027-05-05T00:00:00</v></c></row>' +
            `<row r="3"><c r="A3"><v>${b.product_access_id}</v></c>` +
            '<c r="B3" t="d"><v>2027-06-07T10:30:00</v></c></row>' +
            "</sheetData>",
        },
      ],
      cellFormats: [0, 14],
    });
    const path = join(fx.dir, "iso-dates.xlsx");
    await writeFile(path, bytes);
    const result = await fx.run(["apply", path, "--op", "product_access.edit", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    const stored = (id: unknown) =>
      fx.sim.data.list("product_access").find((r) => r.product_access_id === id)
        ?.product_access_expired_date;
    expect(new Date(String(stored(a.product_access_id))).toISOString()).toBe(
      "2027-05-05T00:00:00.000Z",
    );
    expect(new Date(String(stored(b.product_access_id))).toISOString()).toBe(
      "2027-06-07T10:30:00.000Z",
    );
  });
});
