/**
 * The results file is opened in a spreadsheet, and it echoes the sheet's cells and the portal's
 * messages: a text cell that starts like a formula must be shown, never run. The portal still
 * gets the value as typed; integers (`+7`) stay numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../roster/roster-cli.js";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(83);
});
afterAll(async () => {
  await fx.close();
});

const HYPERLINK = '=HYPERLINK("http://x","y")';
const csvQuoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

describe("apply: results.csv and formula injection", () => {
  it("text cells and the header starting with = + - @ get a leading ' ; integers and the portal's values do not", async () => {
    const [g0, g1] = fx.sim.data.list("grp");
    if (!g0 || !g1) throw new Error("too few groups");
    // `@Grp ID` still names grp_id (punctuation is not part of a header's name).
    const path = await csvFile(fx.dir, "formulas.csv", [
      "@Grp ID,grp_name,grp_description,grp_external_id",
      `+${g0.grp_id},${csvQuoted(HYPERLINK)},-1+2,@SUM(A1)`,
      `${g1.grp_id},Plain name,+cmd|' /C calc'!A0,ext-1`,
    ]);
    const applied = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(fx.sim.data.get("grp", g0.grp_id)?.grp_name).toBe(HYPERLINK);
    expect(fx.sim.data.get("grp", g1.grp_id)?.grp_description).toBe("+cmd|' /C calc'!A0");

    // DuckDB's reader, not the project's, reads the file back.
    const results = await query(
      fx.db,
      `SELECT * FROM read_csv('${path}.results.csv', header = true, all_varchar = true)`,
    );
    expect(Object.keys(results[0] ?? {})).toEqual([
      "'@Grp ID",
      "grp_name",
      "grp_description",
      "grp_external_id",
      "outcome",
      "error",
      "record_id",
    ]);
    expect(results).toEqual([
      {
        "'@Grp ID": `+${g0.grp_id}`,
        grp_name: `'${HYPERLINK}`,
        grp_description: "'-1+2",
        grp_external_id: "'@SUM(A1)",
        outcome: "applied",
        error: null,
        record_id: String(g0.grp_id),
      },
      {
        "'@Grp ID": String(g1.grp_id),
        grp_name: "Plain name",
        grp_description: "'+cmd|' /C calc'!A0",
        grp_external_id: "ext-1",
        outcome: "applied",
        error: null,
        record_id: String(g1.grp_id),
      },
    ]);
  });
});
