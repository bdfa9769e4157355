/**
 * compliance-summary's rows per roster value, on the hand-built dataset (test/fixtures/lms-dataset.ts)
 * with its roster, today 2026-03-10. HR files spell one department in several ways; the summary
 * gave "Sales" and "sales" a row each, splitting one department's people and figures in two, and
 * then "Développement" written as "e" and an accent (as macOS writes it) or with two spaces
 * before it a row each that read the same.
 * Sales is 102 (two completed), 103 (two open) and 107 (one open); Ops is 101, 104 and 106.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { SQL_SPACE, trimmedSql } from "../../src/text/white-space.js";
import { type Cell, openQueryRunner } from "./query-runner.js";

/** The department rows of compliance-summary after `extra` changed the roster. */
async function departments(extra: string[]): Promise<Cell[][]> {
  const runner = await openQueryRunner({ roster: true, extra });
  try {
    const { rows } = await runner.run("compliance-summary");
    return rows.filter((row) => row[0] === "department");
  } finally {
    runner.close();
  }
}

const set = (id: number, value: string) =>
  `UPDATE "user" SET department = ${value} WHERE user_id = ${id}`;

describe("compliance-summary per roster value", () => {
  test("values differing in case or surrounding white space are one, spelled as most are", async () => {
    const rows = await departments([
      set(103, "'sales'"),
      set(107, "chr(9) || 'Sales' || chr(160)"),
      set(106, "' OPS '"),
    ]);
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      ["department", "Ops", null, 3, 4, 1, 1, 2, 0.25, 0.5],
      ["department", "Sales", null, 3, 5, 2, 0, 0, 0.4, 0],
      ["department", "(not set)", null, 2, 3, 0, 0, 2, 0, expect.closeTo(2 / 3, 5)],
    ]);
  });

  test("values differing in Unicode form or inner white space are one, composed, single-spaced", async () => {
    // Ops' 101, 104 and 106 moved to one department spelled three ways, none of them as shown.
    const rows = await departments([
      set(101, "'Ventes & De' || chr(769) || 'veloppement'"),
      set(104, "'ventes &  de' || chr(769) || 'veloppement'"),
      set(106, "'Ventes &' || chr(9) || chr(160) || 'D' || chr(233) || 'veloppement '"),
    ]);
    // biome-ignore format: a table of expected rows, one per line
    expect(rows).toEqual([
      ["department", "Sales", null, 3, 5, 2, 0, 0, 0.4, 0],
      ["department", "Ventes & D\u00e9veloppement", null, 3, 4, 1, 1, 2, 0.25, 0.5],
      ["department", "(not set)", null, 2, 3, 0, 0, 2, 0, expect.closeTo(2 / 3, 5)],
    ]);
  });

  test("the value is folded from the trimmed cell, as the mail split trims it", async () => {
    const sql = await readFile(
      new URL("../../queries/compliance-summary.sql", import.meta.url),
      "utf8",
    );
    const trimmed = trimmedSql("to_json(u) ->> nullif($by_column, '')");
    expect(sql).toContain(
      `nullif(regexp_replace(nfc_normalize(${trimmed}), '${SQL_SPACE}+', ' ', 'g'), '')`,
    );
  });

  test("spellings as frequent as each other: the first alphabetically, lower case first", async () => {
    const rows = await departments([set(102, "'SALES'"), set(103, "'Sales'"), set(107, "'sales'")]);
    expect(rows.map((row) => [row[1], row[3], row[4]])).toEqual([
      ["Ops", 3, 4],
      ["sales", 3, 5],
      ["(not set)", 2, 3],
    ]);
  });
});
