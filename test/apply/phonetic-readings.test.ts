/**
 * A Japanese spreadsheet keeps a text's phonetic reading beside it (`<rPh>`), in an inline string
 * as in a shared one. The cell's text is what is sent, not the text with its reading appended.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { craftWorkbook } from "../tabular/xlsx-workbooks.js";
import { fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(89, 40);

const inline = (ref: string, xml: string) => `<c r="${ref}" t="inlineStr"><is>${xml}</is></c>`;

describe("apply: phonetic readings of a workbook's texts", () => {
  it("sends an inline string's text without its reading", async () => {
    const fx = fixture();
    const [group] = fx.sim.data.list("grp");
    if (!group) throw new Error("no group");
    const bytes = await craftWorkbook({
      sheets: [
        {
          name: "changes",
          xml:
            "<sheetData>" +
            `<row r="1">${inline("A1", "<t>grp_id</t>")}${inline("B1", "<t>grp_description</t>")}</row>` +
            `<row r="2"><c r="A2"><v>${group.grp_id}</v></c>` +
            inline(
              "B2",
              '<t>東京営業部</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/>',
            ) +
            "</row></sheetData>",
        },
      ],
    });
    const path = join(fx.dir, "readings.xlsx");
    await writeFile(path, bytes);
    const result = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    const stored = fx.sim.data.list("grp").find((g) => g.grp_id === group.grp_id);
    expect(stored?.grp_description).toBe("東京営業部");
  });
});
