/**
 * A portal that sends a whole number past 2^53 - 1 as a JSON number: JSON.parse rounds it
 * (9007199254740993 reads as 9007199254740992), so storing what was read stored another number,
 * an id silently another record's. Its digits are now kept as sent, in an int column and in a
 * text one; a number whose digits are lost anyway (written with an exponent) makes its record a
 * reject with the reason. Real HTTP to the simulator through a proxy that writes the numbers the
 * simulator cannot, a real DuckDB file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { forwardingPortal } from "./forwarding-portal.js";
import { extractGroupsOnly } from "./groups-only.js";

const KEY = "past-2-53-key";
const dir = tempDirForFile("lms-past-2-53-");
const LOST =
  "a whole number past 2^53 - 1 (about 9007199254740996), which JSON numbers cannot carry exactly";

/**
 * Extracts the groups through a portal that sends the field `field` of the first three groups as
 * the JSON texts `values` (the rest as they are); answers the three groups' ids.
 */
async function groupsWith(sim: RunningSimulator, db: string, field: string, values: string[]) {
  const ids = sim.data
    .list("grp")
    .slice(0, values.length)
    .map((g) => Number(g.grp_id));
  const written = (record: string) => {
    const at = ids.findIndex((id) => record.startsWith(`{"grp_id":${id},`));
    const value = values[at];
    if (value === undefined) return record;
    return field === "grp_id"
      ? record.replace(/^\{"grp_id":\d+,/, `{"grp_id":${value},`)
      : record.replace(new RegExp(`"${field}":("[^"]*"|null)`), `"${field}":${value}`);
  };
  const portal = await forwardingPortal(sim, {
    answer: (path, text) =>
      path.endsWith("/grp/get_all")
        ? text
            .split(/(?=\{"grp_id")/)
            .map(written)
            .join("")
        : text,
  });
  try {
    await extractGroupsOnly(portal.baseUrl, KEY, db);
  } finally {
    await portal.close();
  }
  return ids;
}

describe("extract of whole numbers past 2^53 - 1", () => {
  it("stores a key sent as such a JSON number exactly, as one sent as a string", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 30, takesPerUser: 2, seed: 3 });
    const db = join(dir, "keys.duckdb");
    try {
      await groupsWith(sim, db, "grp_id", [
        "9007199254740993",
        `"9007199254740995"`,
        "9.007199254740997e15",
      ]);
      const big = await readRows(
        db,
        "SELECT grp_id::VARCHAR FROM grp WHERE grp_id > 2^40 ORDER BY 1",
      );
      expect(big).toEqual([["9007199254740993"], ["9007199254740995"]]);
      expect(await readRows(db, "SELECT reason FROM _rejects")).toEqual([
        [`field "grp_id": ${LOST}`],
      ]);
    } finally {
      await sim.close();
    }
  });

  it("stores a text field sent as such a number as the digits sent", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 30, takesPerUser: 2, seed: 4 });
    const db = join(dir, "external.duckdb");
    try {
      const [big, small] = await groupsWith(sim, db, "grp_external_id", [
        "9007199254740993",
        "4711",
        "9.007199254740997e15",
      ]);
      const external = await readRows(
        db,
        `SELECT grp_external_id FROM grp WHERE grp_id IN (${big}, ${small}) ORDER BY grp_id`,
      );
      expect(external).toEqual([["9007199254740993"], ["4711"]]);
      expect(await readRows(db, "SELECT reason FROM _rejects")).toEqual([
        [`field "grp_external_id": ${LOST}`],
      ]);
    } finally {
      await sim.close();
    }
  });
});
