import { afterEach, describe, expect, it } from "vitest";
import { refuseEmptying } from "../../src/extract/empty-guard.js";
import { type LmsDatabase, openDatabase } from "../../src/load/database.js";
import { mergeStaging } from "../../src/load/merge.js";
import { tableSizes } from "../../src/load/table-sizes.js";
import { withSideTables } from "../load/helpers/memory-db.js";

let db: LmsDatabase | undefined;
afterEach(() => {
  db?.close();
  db = undefined;
});

async function connect() {
  db = await openDatabase(":memory:");
  return withSideTables(await db.connect());
}

const group = (id: number) =>
  `(${id}, 'g${id}', NULL, NULL, NULL, NULL, TIMESTAMP '2026-01-01', TIMESTAMP '2026-01-02', NULL)`;

describe("a full run and the rows it did not fetch", () => {
  it("refuses to empty a table that has rows when nothing was staged", async () => {
    const { connection, side } = await connect();
    await connection.run(`INSERT INTO grp VALUES ${group(1)}, ${group(2)}`);
    const sizes = () => tableSizes(connection, side, ["grp", "take"]);
    const before = await sizes();
    expect(() => refuseEmptying(before)).toThrow(
      "grp: the portal answered no records but the table holds 2; nothing was changed. If the portal really is empty now, run again with --allow-empty",
    );
    await connection.run(`INSERT INTO _stage_grp SELECT *, 1 FROM (VALUES ${group(1)})`);
    expect(refuseEmptying(await sizes())).toBeUndefined();
    connection.closeSync();
  });

  it("keeps the rows of records this run rejected, and removes the ones that are gone", async () => {
    const { connection, side } = await connect();
    await connection.run(`INSERT INTO grp VALUES ${group(1)}, ${group(2)}, ${group(3)}`);
    await connection.run(`INSERT INTO _stage_grp SELECT *, 1 FROM (VALUES ${group(1)})`);
    await connection.run(
      `INSERT INTO _rejects VALUES (7, 'grp', '{"grp_id": 2, "grp_created_date": "not a date"}', 'grp_created_date: not a date')`,
    );
    await mergeStaging(connection, side, ["grp"], "full", { keepRejectedOf: 7 });
    const ids = await connection.runAndReadAll("SELECT grp_id FROM grp ORDER BY grp_id");
    expect(ids.getRows()).toEqual([[1n], [2n]]);
    connection.closeSync();
  });
});
