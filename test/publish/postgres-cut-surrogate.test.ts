/**
 * A portal that sends a field the interface does not name, whose text was cut inside an emoji's
 * surrogate pair (`"cut \ud83d"`, as a portal that shortens UTF-16 text may). The extract keeps
 * such fields as JSON in `_extra`; PostgreSQL's jsonb refuses half a pair, so that one value must
 * not fail every publish. Real HTTP to the simulator through a proxy that adds the field, a real
 * DuckDB file, a real PostgreSQL started for this test.
 */
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { postgresInstalled } from "../../src/bench/temp-postgres.js";
import { openDatabase } from "../../src/load/database.js";
import { publishPostgres } from "../../src/publish/postgres/publish-postgres.js";
import { startSimulator } from "../../src/simulator/server.js";
import { forwardingPortal } from "../extract/forwarding-portal.js";
import { extractGroupsOnly } from "../extract/groups-only.js";
import { readRows } from "../helpers/read-rows.js";
import { tempDir } from "../helpers/temp-dir.js";
import { biSettings, useBiServer } from "./helpers/bi-server.js";

const KEY = "cut-surrogate-key";
const PASSWORD = "cut-surrogate-pw";
const installed = postgresInstalled();
const postgres = useBiServer(PASSWORD, installed);

/** Extracts the groups into `db`, the first one sent with the extra field `note` as `noteJson`. */
async function groupsWithNote(db: string, noteJson: string): Promise<number> {
  const sim = await startSimulator({ apiKey: KEY, users: 20, takesPerUser: 1, seed: 6 });
  const first = Number(sim.data.list("grp")[0]?.grp_id);
  const portal = await forwardingPortal(sim, {
    answer: (path, text) =>
      path.endsWith("/grp/get_all")
        ? text.replace(`{"grp_id":${first},`, `{"grp_id":${first},"note":${noteJson},`)
        : text,
  });
  try {
    await extractGroupsOnly(portal.baseUrl, KEY, db);
  } finally {
    await portal.close();
    await sim.close();
  }
  return first;
}

describe.skipIf(!installed)("a field cut inside a surrogate pair", () => {
  test("is kept with U+FFFD for the half character, and published to PostgreSQL", async () => {
    const file = join(await tempDir(), "cut.duckdb");
    const id = await groupsWithNote(
      file,
      '"cut \\ud83d, whole \\ud83d\\ude00 \\u00fc, text \\\\ud83d"',
    );
    expect(await readRows(file, `SELECT _extra->>'note' FROM grp WHERE grp_id = ${id}`)).toEqual([
      ["cut \uFFFD, whole 😀 ü, text \\ud83d"],
    ]);
    expect(await readRows(file, "SELECT CAST(example AS VARCHAR) FROM _schema_drift")).toEqual([
      ['"cut \uFFFD, whole 😀 ü, text \\\\ud83d"'],
    ]);

    const db = await openDatabase(file);
    try {
      await publishPostgres(db, {
        settings: await biSettings(postgres.current, PASSWORD),
        schema: "cut",
      });
    } finally {
      db.close();
    }
    const bi = await postgres.current.server.admin("bi");
    try {
      const published = await bi.query("SELECT _extra FROM cut.grp WHERE grp_id = $1", [id]);
      expect(published.rows).toEqual([
        { _extra: { note: "cut \uFFFD, whole 😀 ü, text \\ud83d" } },
      ]);
    } finally {
      await bi.end();
    }
  });
});
