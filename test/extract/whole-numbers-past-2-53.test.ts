/**
 * A portal that sends a whole number past 2^53 - 1 as a JSON number: JSON.parse rounds it
 * (9007199254740993 reads as 9007199254740992), so storing what was read stores another number,
 * an id silently another record's. Such a record is rejected with its reason; the same digits as
 * a string are exact and stored. Real HTTP to the simulator through a proxy that writes the
 * numbers the simulator cannot, a real DuckDB file.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/server.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { forwardingPortal } from "./forwarding-portal.js";
import { extractGroupsOnly } from "./groups-only.js";

const KEY = "past-2-53-key";
const dir = tempDirForFile("lms-past-2-53-");

describe("extract of whole numbers past 2^53 - 1", () => {
  it("rejects one sent as a JSON number and keeps one sent as a string", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 30, takesPerUser: 2, seed: 3 });
    const [first, second] = sim.data.list("grp").map((g) => Number(g.grp_id));
    const portal = await forwardingPortal(sim, {
      answer: (path, text) =>
        path.endsWith("/grp/get_all")
          ? text
              .replace(`{"grp_id":${first},`, `{"grp_id":9007199254740993,`)
              .replace(`{"grp_id":${second},`, `{"grp_id":"9007199254740995",`)
          : text,
    });
    const db = join(dir, "past.duckdb");
    try {
      await extractGroupsOnly(portal.baseUrl, KEY, db);
      const big = await readRows(db, "SELECT grp_id::VARCHAR FROM grp WHERE grp_id > 2^40");
      expect(big).toEqual([["9007199254740995"]]);
      expect(await readRows(db, "SELECT resource, reason FROM _rejects")).toEqual([
        [
          "grp",
          'field "grp_id": a whole number past 2^53 - 1 (about 9007199254740992), which JSON numbers cannot carry exactly',
        ],
      ]);
    } finally {
      await portal.close();
      await sim.close();
    }
  });

  it("rejects a text field sent as such a number and keeps a smaller one as its digits", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 30, takesPerUser: 2, seed: 4 });
    const [first, second] = sim.data.list("grp").map((g) => Number(g.grp_id));
    const external = (id: number | undefined, value: string) => (record: string) =>
      record.startsWith(`{"grp_id":${id},`)
        ? record.replace(/"grp_external_id":("[^"]*"|null)/, `"grp_external_id":${value}`)
        : record;
    const portal = await forwardingPortal(sim, {
      answer: (path, text) =>
        path.endsWith("/grp/get_all")
          ? text
              .split(/(?=\{"grp_id")/)
              .map(external(first, "9007199254740993"))
              .map(external(second, "4711"))
              .join("")
          : text,
    });
    const db = join(dir, "external.duckdb");
    try {
      await extractGroupsOnly(portal.baseUrl, KEY, db);
      expect(
        await readRows(db, `SELECT grp_external_id FROM grp WHERE grp_id = ${second}`),
      ).toEqual([["4711"]]);
      expect(
        await readRows(db, `SELECT count(*)::INTEGER FROM grp WHERE grp_id = ${first}`),
      ).toEqual([[0]]);
      expect(await readRows(db, "SELECT reason FROM _rejects")).toEqual([
        [
          'field "grp_external_id": a whole number past 2^53 - 1 (about 9007199254740992), which JSON numbers cannot carry exactly',
        ],
      ]);
    } finally {
      await portal.close();
      await sim.close();
    }
  });
});
