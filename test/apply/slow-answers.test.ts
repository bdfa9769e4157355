/**
 * A portal that answers writes more slowly than `--request-timeout`: each attempt is given up
 * after that many seconds while the portal goes on and applies the change, so the row is told as
 * one the portal may hold (never as not sent), and the message names the setting that lets the
 * next run wait long enough; with it, the same file is applied. Real HTTP through a relay that
 * holds each edit back before the simulator gets it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { forwardingPortal } from "../extract/forwarding-portal.js";
import { query } from "../roster/roster-cli.js";
import { csvFile, fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(79, 60);
/**
 * How long the relay holds an edit back: past a 1 s timeout however undici's timer (checked
 * every half second) falls, well within a 10 s one.
 */
const HELD_MS = 3_000;

describe("apply: a portal slower than --request-timeout", () => {
  it("the row may be applied, the message names --request-timeout; a longer one applies it", async () => {
    const fx = fixture();
    const [record] = fx.sim.data.list("product_access").slice(0, 1);
    const id = record?.product_access_id as number;
    const path = await csvFile(fx.dir, "slow.csv", [
      "product_access_id,product_access_expired_date",
      `${id},2032-03-04T05:06:07Z`,
    ]);
    const relay = await forwardingPortal(fx.sim, {
      before: async (path) => {
        if (path.includes("/edit/")) await sleep(HELD_MS);
      },
    });
    const args = ["apply", path, "--op", "product_access.edit", "--yes"];
    try {
      const slow = await fx.runWith([...args, "--request-timeout", "1"], {
        baseUrl: relay.baseUrl,
      });
      expect(slow.code).toBe(1);
      expect(slow.stderr).toContain("1 row failed (line 2), 0 applied");
      const [row] = await query(
        fx.db,
        `SELECT outcome, error FROM read_csv('${path}.results.csv', header = true, all_varchar = true)`,
      );
      expect(row?.outcome).toBe("failed");
      expect(String(row?.error)).toContain("so it may hold the change");
      expect(String(row?.error)).toContain(
        "within 1 s (UND_ERR_HEADERS_TIMEOUT); a portal this slow needs a longer --request-timeout SECONDS",
      );
      // The portal went on and applied what the client had given up waiting for.
      const held = () => fx.sim.data.get("product_access", id)?.product_access_expired_date;
      for (
        let i = 0;
        i < 100 && Date.parse(String(held())) !== Date.parse("2032-03-04T05:06:07Z");
        i++
      ) {
        await sleep(50);
      }
      expect(Date.parse(String(held()))).toBe(Date.parse("2032-03-04T05:06:07Z"));

      const patient = await fx.runWith([...args, "--request-timeout", "10"], {
        baseUrl: relay.baseUrl,
      });
      expect(patient.code, patient.stderr).toBe(0);
      expect(patient.stdout).toContain("1 applied");
    } finally {
      await relay.close();
    }
  });
});
