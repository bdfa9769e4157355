/**
 * The dates a workbook's date cells send. A cell may be written as ISO 8601 text (`<c t="d">`, as
 * the Strict format and some programs save dates) rather than as a serial number: it is the date
 * its text says, not its year alone read as a serial day (2027 under a date format is
 * 1905-07-19). A serial cell under Excel's built-in date and time format 22, which Excel gives a
 * date typed with a time (`1/1/2027 23:59`), sends its time; under the built-in date format 14
 * the day alone, as the sheet shows it. A serial cell under a built-in format whose text depends
 * on the language of Excel (27-36, 50-58: Japanese, Chinese, Korean dates and times, which a
 * workbook refers to by id alone) is a date too, with its time.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { craftWorkbook } from "../tabular/xlsx-workbooks.js";
import { type ApplyFixture, fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(83, 60);

/** Serial days of 2027-01-01 23:59:00 and 12:00:00 (day 46388 counts from 1899-12-30). */
const LAST_MINUTE = 46388 + (23 * 60 + 59) / 1440;
const NOON = 46388.5;

/**
 * Applies a workbook setting the expiry of the first two access records to the date cells
 * `first` and `second` (a cell's attributes and value, `s="1"><v>…`), styled by `cellFormats`;
 * answers the two dates the portal then holds, as ISO text.
 */
async function appliedDates(
  fx: ApplyFixture,
  first: string,
  second: string,
  cellFormats: number[],
): Promise<string[]> {
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
          `<row r="2"><c r="A2"><v>${a.product_access_id}</v></c><c r="B2" ${first}</c></row>` +
          `<row r="3"><c r="A3"><v>${b.product_access_id}</v></c><c r="B3" ${second}</c></row>` +
          "</sheetData>",
      },
    ],
    cellFormats,
  });
  const path = join(fx.dir, "dates.xlsx");
  await writeFile(path, bytes);
  const result = await fx.run(["apply", path, "--op", "product_access.edit", "--yes"]);
  expect(result.code, result.stderr).toBe(0);
  const stored = (id: unknown) =>
    fx.sim.data.list("product_access").find((r) => r.product_access_id === id)
      ?.product_access_expired_date;
  return [a, b].map((r) => new Date(String(stored(r.product_access_id))).toISOString());
}

describe("apply: date cells of a workbook", () => {
  it("sends the date and time an ISO cell holds, under a date format or none", async () => {
    const dates = await appliedDates(
      fixture(),
      's="1" t="d"><v>2027-05-05T00:00:00</v>',
      't="d"><v>2027-06-07T10:30:00</v>',
      [0, 14],
    );
    expect(dates).toEqual(["2027-05-05T00:00:00.000Z", "2027-06-07T10:30:00.000Z"]);
  });

  it("sends the time of a cell formatted as date and time, the day alone of a date format", async () => {
    const dates = await appliedDates(
      fixture(),
      `s="1"><v>${LAST_MINUTE}</v>`,
      `s="2"><v>${NOON}</v>`,
      [0, 22, 14],
    );
    expect(dates).toEqual(["2027-01-01T23:59:00.000Z", "2027-01-01T00:00:00.000Z"]);
  });

  it("sends a date under a built-in format Excel words by language, with its time", async () => {
    const dates = await appliedDates(
      fixture(),
      `s="1"><v>${LAST_MINUTE}</v>`,
      `s="2"><v>46388</v>`,
      [0, 31, 57],
    );
    expect(dates).toEqual(["2027-01-01T23:59:00.000Z", "2027-01-01T00:00:00.000Z"]);
  });
});
