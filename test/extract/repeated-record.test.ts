/**
 * A portal whose answer repeats one record in place of another (a join or an unstable sort in
 * its query): the answer holds as many records as its `total`, one key twice and another not at
 * all. The offset pass sees the repeat and reads the list again by key ranges; a range answered
 * that way must not count as whole, while a portal that lists a record twice in every answer and
 * counts both copies (a join in its query) is still read whole. Real HTTP to the simulator through a proxy that repeats the
 * record, a real DuckDB file compared with the portal field by field.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { normaliseApi, normaliseTable } from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { forwardingPortal } from "./forwarding-portal.js";
import { extractGroupsOnly } from "./groups-only.js";

const KEY = "repeated-record-key";
const dir = tempDirForFile("lms-repeated-record-");

/** The answer `text` with the record of key `gone` replaced by a copy of the record of `kept`. */
function repeated(text: string, kept: number, gone: number): string {
  const answer = JSON.parse(text) as { result: { grp_id: number }[] };
  const copy = answer.result.find((record) => record.grp_id === kept);
  if (copy === undefined || !answer.result.some((record) => record.grp_id === gone)) return text;
  answer.result = answer.result.map((record) => (record.grp_id === gone ? copy : record));
  return JSON.stringify(answer);
}

/**
 * The answer `text` with the record of key `twice` listed twice and counted twice in `total`;
 * `firstName` gives the first copy another grp_name.
 */
function joined(text: string, twice: number, firstName?: string): string {
  const answer = JSON.parse(text) as {
    total: number;
    result: { grp_id: number; grp_name?: string }[];
  };
  if (!answer.result.some((record) => record.grp_id === twice)) return text;
  answer.result = answer.result.flatMap((record) =>
    record.grp_id === twice
      ? [firstName === undefined ? record : { ...record, grp_name: firstName }, record]
      : [record],
  );
  answer.total += 1;
  return JSON.stringify(answer);
}

async function expectGroupsEqualPortal(db: string, sim: RunningSimulator): Promise<void> {
  const handle = await openDatabase(db, { readOnly: true });
  try {
    const rows = await normaliseTable(await handle.connect(), "grp");
    expect(rows).toEqual(normaliseApi("grp", sim.data.list("grp")));
  } finally {
    handle.close();
  }
}

describe("extract of a list whose answer repeats a record in place of another", () => {
  it("asks again until every record is there", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 400, takesPerUser: 1, seed: 3 });
    const [, kept, gone] = sim.data.list("grp").map((g) => Number(g.grp_id));
    let rangeAnswers = 0;
    // Every offset page repeats the record, so the listing is read again by key ranges, and the
    // first range answer does too: only that answer's count says whether it was whole.
    const portal = await forwardingPortal(sim, {
      answer: (path, text, body) => {
        if (!path.endsWith("/grp/get_all")) return text;
        if (body.includes('"grp_id"') && rangeAnswers++ > 0) return text;
        return repeated(text, kept as number, gone as number);
      },
    });
    const db = join(dir, "repeated.duckdb");
    try {
      await extractGroupsOnly(portal.baseUrl, KEY, db);
      await expectGroupsEqualPortal(db, sim);
    } finally {
      await portal.close();
      await sim.close();
    }
  });

  it("reads whole a list that repeats a record in every answer and counts it twice", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 400, takesPerUser: 1, seed: 3 });
    const [, twice] = sim.data.list("grp").map((g) => Number(g.grp_id));
    const portal = await forwardingPortal(sim, {
      answer: (path, text) =>
        path.endsWith("/grp/get_all") ? joined(text, twice as number) : text,
    });
    try {
      const db = join(dir, "joined.duckdb");
      await extractGroupsOnly(portal.baseUrl, KEY, db);
      await expectGroupsEqualPortal(db, sim);
    } finally {
      await portal.close();
      await sim.close();
    }
  });

  it("says which record two copies in one answer disagree on, and keeps the one listed last", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 400, takesPerUser: 1, seed: 3 });
    const [, twice] = sim.data.list("grp").map((g) => Number(g.grp_id));
    const portal = await forwardingPortal(sim, {
      answer: (path, text) =>
        path.endsWith("/grp/get_all") ? joined(text, twice as number, "Older name") : text,
    });
    const lines: string[] = [];
    try {
      const db = join(dir, "disagreeing.duckdb");
      await extractGroupsOnly(portal.baseUrl, KEY, db, recordingLogger(lines));
      // The portal's own record is the copy listed last, so the table equals the portal.
      await expectGroupsEqualPortal(db, sim);
    } finally {
      await portal.close();
      await sim.close();
    }
    const said = lines.filter((line) => line.includes("twice in one answer"));
    expect(said.length).toBeGreaterThan(0);
    expect(said[0]).toBe(
      `warn listGroups (/api-v2/grp/get_all): the portal listed grp_id ${twice} twice in one answer, with different grp_name; the copy listed last is kept`,
    );
  });
});
