/**
 * A portal whose `total` counts records its lists never show (deleted or hidden ones it still
 * counts): no reading can be proven whole, so the run fails, and its message says that the
 * portal's answers hold fewer records than they count rather than only that records keep
 * changing. Real HTTP to the simulator through a proxy that adds to every total.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../src/simulator/server.js";
import { recordingLogger } from "../helpers/recording-logger.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { forwardingPortal } from "./forwarding-portal.js";
import { extractGroupsOnly } from "./groups-only.js";

const KEY = "overcounted-total-key";
const dir = tempDirForFile("lms-overcounted-total-");

/** The answer `text` with `more` added to its `total`. */
function overcounted(text: string, more: number): string {
  const answer = JSON.parse(text) as { total?: number };
  if (typeof answer.total !== "number") return text;
  answer.total += more;
  return JSON.stringify(answer);
}

describe("extract of a list whose total counts records it never lists", () => {
  it("fails saying the answers hold fewer records than they count", async () => {
    const sim = await startSimulator({ apiKey: KEY, users: 400, takesPerUser: 1, seed: 3 });
    const portal = await forwardingPortal(sim, {
      answer: (path, text) => (path.endsWith("/grp/get_all") ? overcounted(text, 3) : text),
    });
    const lines: string[] = [];
    try {
      const db = join(dir, "overcounted.duckdb");
      const failure = extractGroupsOnly(portal.baseUrl, KEY, db, recordingLogger(lines));
      await expect(failure).rejects.toThrow(
        /the list cannot be read exactly: .*; the portal's answers count more records than they hold \(key range \d+\.\.\d+: total 4, 1 held, room for \d+\), so its total counts records its lists never show/,
      );
      // One page holds the whole list: page one's few records are all there are, not a cap.
      expect(lines.join("\n")).not.toMatch(/records per page/);
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^info listGroups .*: page one held 16 records of the 19 its total counts \(100 asked for\), and no page after it held more: the list shows fewer records than its total counts$/,
        ),
      );
    } finally {
      await portal.close();
      await sim.close();
    }
  });
});
