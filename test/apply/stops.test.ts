/**
 * `apply` stopping before the end for a reason no row is to blame for: a database that takes no
 * more outcomes, a full disk under the journal, a refused key, a portal out of reach or issuing no
 * token. Sending stops, the rows not sent are `skipped` (in the results file too), one line says
 * what to do, and the next run sends exactly what was not sent.
 */

import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTlsPortal } from "../api/tls-portal.js";
import { forwardingPortal } from "../extract/forwarding-portal.js";
import { query } from "../roster/roster-cli.js";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";
import { refuseApplied } from "./refuse-applied.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(67);
});
afterAll(async () => {
  await fx.close();
});

const edits = () => fx.sim.stats.byOperation.get("product_access/edit") ?? 0;
const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";

/** The outcomes of the results file of `path`, with their counts. */
function outcomes(path: string) {
  return query(
    fx.db,
    `SELECT outcome, count(*)::INT AS n FROM read_csv('${path}.results.csv', header = true, all_varchar = true) GROUP BY ALL ORDER BY ALL`,
  );
}

/** An edit of `count` access records from `from` on; answers the file and the records. */
async function accessFile(name: string, from: number, count: number) {
  const access = fx.sim.data.list("product_access").slice(from, from + count);
  const path = await csvFile(fx.dir, name, [
    "product_access_id,product_access_expired_date",
    ...access.map((r) => `${r.product_access_id},2030-01-0${1 + (from % 9)}T00:00:00Z`),
  ]);
  return { path, access, args: ["apply", path, "--op", "product_access.edit", "--yes"] };
}

describe("apply stops sending", () => {
  it("when the database takes no more outcomes: the rest skipped, none lost, none sent twice", async () => {
    const { path, access, args } = await accessFile("refused-record.csv", 0, 150);
    await refuseApplied(fx.db, "refused-record.csv");
    fx.sim.faults.latencyMs = 20;
    const start = edits();
    const stopped = await fx.run([...args, "--concurrency", "2"]);
    fx.sim.faults.latencyMs = 0;
    await refuseApplied(fx.db, null);
    expect(stopped.code, stopped.stderr).toBe(1);
    const line = lastLine(stopped.stderr);
    expect(line).toContain("apply stopped: an outcome could not be recorded (Constraint Error");
    expect(line).toContain("rows were not sent");
    expect(line).toContain(`kept in ${fx.db}.apply-journal`);
    const sent = edits() - start;
    expect(sent).toBeLessThan(access.length);
    expect(await outcomes(path)).toEqual([
      { outcome: "applied", n: sent },
      { outcome: "skipped", n: access.length - sent },
    ]);

    // The next run takes in the journal and sends only what was not sent.
    const rest = await fx.run(args);
    expect(rest.code, rest.stderr).toBe(0);
    expect(edits() - start).toBe(access.length);
    for (const r of access) {
      const now = fx.sim.data.get("product_access", r.product_access_id);
      expect(Date.parse(String(now?.product_access_expired_date))).toBe(
        Date.parse("2030-01-01T00:00:00Z"),
      );
    }
  });

  it("the journal taken in after an extract leaves the records changed since as the extract read them", async () => {
    const { path, access, args } = await accessFile("then-extract.csv", 220, 3);
    const first = access[0];
    if (!first) throw new Error("no access record");
    await refuseApplied(fx.db, "then-extract.csv");
    const stopped = await fx.run(args);
    await refuseApplied(fx.db, null);
    expect(stopped.code, stopped.stderr).toBe(1);
    expect(stopped.stderr).toContain(`kept in ${fx.db}.apply-journal`);
    // Someone changes the record in the portal after the write; an extract reads it so.
    const status = first.product_access_status === "inactive" ? "active" : "inactive";
    fx.sim.data.edit("product_access", first.product_access_id, { product_access_status: status });
    const extracted = await fx.run(["extract"]);
    expect(extracted.code, extracted.stderr).toBe(0);
    const stored = () =>
      query(
        fx.db,
        `SELECT product_access_status AS status FROM product_access WHERE product_access_id = ${first.product_access_id}`,
      );
    expect(await stored()).toEqual([{ status }]);

    // The next apply takes the journal in: the outcomes, but not the older answer over the record.
    const dry = await fx.run(["apply", path, "--op", "product_access.edit", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("applied by an earlier run");
    expect(await stored()).toEqual([{ status }]);
  });

  it("when the disk under the journal is full: nothing is sent", async () => {
    const { args } = await accessFile("full-disk.csv", 150, 10);
    const journal = `${fx.db}.apply-journal`;
    // Every write to /dev/full fails as on a full disk (ENOSPC).
    await symlink("/dev/full", journal);
    try {
      const start = edits();
      const result = await fx.run(args);
      expect(result.code).toBe(1);
      const line = lastLine(result.stderr);
      expect(line).toContain(`the outcomes could not be recorded in ${journal}`);
      expect(line).toContain("no space left");
      expect(line).toContain("nothing was sent");
      expect(edits()).toBe(start);
    } finally {
      await rm(journal, { force: true });
    }
  });

  it("when the portal refuses the key: no row is blamed, every row is left for the next run", async () => {
    const { path, access, args } = await accessFile("wrong-key.csv", 160, 30);
    const wrong = join(fx.dir, "wrong-key");
    await writeFile(wrong, "not-the-key-3d9a\n", { mode: 0o600 });
    const start = edits();
    const refused = await fx.runWith(args, { keyFile: wrong });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain("apply stopped: ");
    expect(refused.stderr).toContain("the portal refused the API key");
    expect(refused.stderr).toContain(`: check the key in the key file ${wrong} (`);
    expect(refused.stderr).toContain("No row is at fault: 30 rows were not sent");
    expect(refused.stderr).not.toContain("rows failed");
    expect(refused.stderr).not.toContain("not-the-key-3d9a");
    expect(edits()).toBe(start);
    expect(await outcomes(path)).toEqual([{ outcome: "skipped", n: 30 }]);

    const sent = await fx.run(args);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain(`${access.length} applied`);
    expect(edits() - start).toBe(access.length);
  });

  it("when the portal issues no token (HTTP 500 to everything): no row is blamed", async () => {
    const { path, access, args } = await accessFile("no-token.csv", 170, 12);
    const start = edits();
    fx.sim.faults.errorRate = 1;
    let failing: Awaited<ReturnType<typeof fx.run>>;
    try {
      failing = await fx.run(args);
    } finally {
      fx.sim.faults.errorRate = 0;
    }
    expect(failing.code).toBe(1);
    expect(failing.stderr.trim().split("\n")).toHaveLength(1);
    expect(failing.stderr).toContain("apply stopped: the portal did not issue an access token");
    expect(failing.stderr).toContain("No row is at fault: 12 rows were not sent");
    expect(failing.stderr).not.toContain("rows failed");
    expect(await outcomes(path)).toEqual([{ outcome: "skipped", n: 12 }]);

    const sent = await fx.run(args);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain(`${access.length} applied`);
    expect(edits() - start).toBe(access.length);
  });

  it("when the portal cannot be reached: one line naming it, no row failed", async () => {
    const { path, args } = await accessFile("unreachable.csv", 200, 5);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const result = await fx.runWith(args, { baseUrl: `http://127.0.0.1:${port}/api-v2` });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("apply stopped: the portal cannot be reached");
    expect(result.stderr).toContain("check --base-url and the network");
    expect(await outcomes(path)).toEqual([{ outcome: "skipped", n: 5 }]);
  });

  it("when the portal's certificate is not trusted: one line naming it, no row failed", async () => {
    const { path, args } = await accessFile("untrusted.csv", 210, 5);
    const portal = await startTlsPortal(fx.dir);
    try {
      const result = await fx.runWith(args, { baseUrl: portal.baseUrl });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain("apply stopped: the portal's certificate is not accepted");
      expect(result.stderr).toContain("NODE_EXTRA_CA_CERTS");
      expect(result.stderr).toContain("No row is at fault: 5 rows were not sent");
      expect(await outcomes(path)).toEqual([{ outcome: "skipped", n: 5 }]);
    } finally {
      await portal.close();
    }
  });

  it("when the results file cannot be written: the line names it and its folder, not the database", async () => {
    const { path, access, args } = await accessFile("results-blocked.csv", 225, 3);
    // A folder made where the results file goes while the rows are sent (one there before is
    // refused before anything is sent: results-place.test.ts): nothing can be written over it.
    let made = false;
    const relay = await forwardingPortal(fx.sim, {
      before: async (requested) => {
        if (made || !requested.includes("/edit/")) return;
        made = true;
        await mkdir(`${path}.results.csv`);
      },
    });
    try {
      const result = await fx.runWith(args, { baseUrl: relay.baseUrl });
      expect(result.code).toBe(1);
      const line = lastLine(result.stderr);
      expect(line).toContain(`apply could not write ${path}.results.csv`);
      expect(line).toContain(`the outcomes are in the _changes table of ${fx.db}`);
      expect(line).toContain(`${path}.results.csv is a folder: rename or remove it`);
      expect(line).not.toContain(`Make ${fx.db}`);
      const recorded = await query(
        fx.db,
        `SELECT count(*)::INT AS n FROM _changes WHERE file = 'results-blocked.csv'`,
      );
      // Every row's outcome is where the line says it is.
      expect(recorded[0]?.n).toBe(access.length);
    } finally {
      await relay.close();
      await rm(`${path}.results.csv`, { recursive: true, force: true });
    }
  });
});
