/**
 * A portal written in PHP may send a list's `result` as an object keyed by number: json_encode
 * writes an array that way once its keys are not 0, 1, 2, … (a record filtered out, or keys that
 * continue from the page's start). Real HTTP to the simulator through a proxy that rewrites every
 * group list answer so, a real DuckDB file compared with the portal field by field; an object
 * keyed otherwise still fails the run, naming a key that is no whole number. A portal that writes
 * every list so (PHP's JSON_FORCE_OBJECT), an empty one as {}, is read whole.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runExtract } from "../../src/extract/extract.js";
import { openDatabase } from "../../src/load/database.js";
import { silentLogger } from "../../src/log/logger.js";
import { startSimulator } from "../../src/simulator/server.js";
import {
  expectTablesEqualPortal,
  normaliseApi,
  normaliseTable,
} from "../helpers/table-snapshot.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { forwardingPortal } from "./forwarding-portal.js";
import { extractGroupsOnly } from "./groups-only.js";

const KEY = "php-object-key";
const dir = tempDirForFile("lms-php-object-");

/** The answer `text` with its `result` array as an object whose keys are `keyOf(index)`. */
function asObject(text: string, keyOf: (index: number) => string): string {
  const answer = JSON.parse(text) as { result?: unknown };
  if (!Array.isArray(answer.result)) return text;
  answer.result = Object.fromEntries(answer.result.map((record, i) => [keyOf(i), record]));
  return JSON.stringify(answer);
}

async function extractThrough(keyOf: (index: number) => string, db: string) {
  const sim = await startSimulator({ apiKey: KEY, users: 400, takesPerUser: 1, seed: 5 });
  const portal = await forwardingPortal(sim, {
    answer: (path, text) => (path.endsWith("/grp/get_all") ? asObject(text, keyOf) : text),
  });
  try {
    await extractGroupsOnly(portal.baseUrl, KEY, db);
    return sim.data.list("grp");
  } finally {
    await portal.close();
    await sim.close();
  }
}

describe("a list answer whose result is an object keyed by number", () => {
  it("is read as its values, every record stored as the portal has it", async () => {
    const db = join(dir, "numbered.duckdb");
    // Keys from 10 up with one skipped: an array offset and filtered on the portal's side.
    const portalGroups = await extractThrough((i) => String(10 + i + (i > 3 ? 1 : 0)), db);
    const handle = await openDatabase(db, { readOnly: true });
    try {
      const rows = await normaliseTable(await handle.connect(), "grp");
      expect(rows).toEqual(normaliseApi("grp", portalGroups));
      expect(portalGroups.length).toBeGreaterThan(3);
    } finally {
      handle.close();
    }
  });

  it("keyed by negative numbers too, as PHP keeps them, is read whole", async () => {
    const db = join(dir, "negative.duckdb");
    // PHP writes [-2 => …, -1 => …, 0 => …] as {"-2":…,"-1":…,"0":…}; JavaScript lists "-2" last.
    const portalGroups = await extractThrough((i) => String(i - 2), db);
    const handle = await openDatabase(db, { readOnly: true });
    try {
      const rows = await normaliseTable(await handle.connect(), "grp");
      expect(rows).toEqual(normaliseApi("grp", portalGroups));
    } finally {
      handle.close();
    }
  });

  it("keyed by anything else, fails the run naming a key that is no whole number", async () => {
    await expect(extractThrough((i) => `g${i}`, join(dir, "named.duckdb"))).rejects.toThrow(
      'the list answer\'s `result` is an object, not an array, and its key "g0" is not a whole number',
    );
    // "01" is text to PHP, never an array's key: such an object is a map the portal meant.
    await expect(extractThrough((i) => `0${i + 1}`, join(dir, "zero-led.duckdb"))).rejects.toThrow(
      'its key "01" is not a whole number as an array\'s keys are',
    );
  });

  it("every list written as JSON_FORCE_OBJECT writes it, {} for none, is read whole", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 120, takesPerUser: 1, seed: 9 });
    let empty = 0;
    const portal = await forwardingPortal(sim, {
      answer: (_path, text) => {
        if (text.includes('"result":[]')) empty++;
        return asObject(text, String);
      },
    });
    const db = join(dir, "forced.duckdb");
    try {
      await runExtract({
        db,
        clientOptions: { baseUrl: portal.baseUrl, apiKey: KEY, pageSize: 50 },
        mode: "full",
        logger: silentLogger,
      });
      const handle = await openDatabase(db, { readOnly: true });
      try {
        await expectTablesEqualPortal(await handle.connect(), sim.data);
      } finally {
        handle.close();
      }
      // Users without takes: their take lists came back as {}.
      expect(empty).toBeGreaterThan(0);
    } finally {
      await portal.close();
      await sim.close();
    }
  });
});
