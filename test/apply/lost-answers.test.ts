/**
 * Rows whose write reached the portal but whose answer was lost: the portal may hold the change,
 * so the results file and `_changes` must not say the row was not sent, and a failed row says it
 * may be applied. The next run sends them again, which sets the same values.
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../roster/roster-cli.js";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(73);
});
afterAll(async () => {
  await fx.close();
});

/** The outcome and error of each row of the results file of `path`. */
function results(path: string) {
  return query(
    fx.db,
    `SELECT outcome, error FROM read_csv('${path}.results.csv', header = true, all_varchar = true)`,
  );
}

/**
 * A relay to the simulator that, once the portal has answered the first edit, drops that answer
 * and every connection and takes no new one: the network gone just after a write was applied.
 */
async function cutAfterFirstEdit(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const target = new URL(fx.sim.baseUrl);
  const sockets = new Set<Socket>();
  let cut = false;
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    let editAsked = false;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined);
      socket.on("close", () => sockets.delete(socket));
    }
    client.on("data", (chunk: Buffer) => {
      if (chunk.toString("latin1").includes("/edit/")) editAsked = true;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!editAsked || cut) return void client.write(chunk);
      cut = true;
      server.close();
      for (const socket of sockets) socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("apply: a write whose answer was lost", () => {
  it("network gone after an edit was applied: that row is 'sent, answer lost', not 'not sent'", async () => {
    const access = fx.sim.data.list("product_access").slice(0, 4);
    const path = await csvFile(fx.dir, "cut.csv", [
      "product_access_id,product_access_expired_date",
      ...access.map((r) => `${r.product_access_id},2031-02-03T04:05:06Z`),
    ]);
    const args = ["apply", path, "--op", "product_access.edit", "--yes", "--concurrency", "1"];
    const relay = await cutAfterFirstEdit();
    const cutRun = await fx.runWith(args, { baseUrl: relay.baseUrl }).finally(relay.close);
    expect(cutRun.code).toBe(1);
    expect(cutRun.stderr).toContain("apply stopped: the portal cannot be reached");
    // The row whose answer was lost is not counted as not sent.
    expect(cutRun.stderr).toContain(
      "No row is at fault: 3 rows were not sent and 1 was sent but the answer was lost (the portal may hold the change)",
    );
    const first = access[0]?.product_access_id as number;
    // The portal applied the first edit although its answer never came back.
    const held = fx.sim.data.get("product_access", first)?.product_access_expired_date;
    expect(Date.parse(String(held))).toBe(Date.parse("2031-02-03T04:05:06Z"));
    const rows = await results(path);
    expect(rows.map((r) => r.outcome)).toEqual(["skipped", "skipped", "skipped", "skipped"]);
    expect(String(rows[0]?.error)).toContain("sent, but its answer was lost");
    expect(String(rows[0]?.error)).toContain("the portal may hold the change");
    for (const row of rows.slice(1)) expect(String(row.error)).toMatch(/^not sent: /);
    const recorded = await query(
      fx.db,
      `SELECT error FROM _changes WHERE file = 'cut.csv' AND line = 2 AND outcome = 'skipped'`,
    );
    expect(String(recorded[0]?.error)).toContain("sent, but its answer was lost");

    const rest = await fx.run(args);
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stdout).toContain("4 applied");
  });

  it("every answer lost: the failed rows say the portal may hold the change, and it does", async () => {
    const access = fx.sim.data.list("product_access").slice(10, 12);
    const other = (status: unknown) => (status === "inactive" ? "active" : "inactive");
    const path = await csvFile(fx.dir, "dropped.csv", [
      "product_access_id,product_access_status",
      ...access.map((r) => `${r.product_access_id},${other(r.product_access_status)}`),
    ]);
    const args = ["apply", path, "--op", "product_access.edit", "--yes"];
    fx.sim.faults.writeThenDropRate = 1;
    const dropped = await fx.run(args).finally(() => {
      fx.sim.faults.writeThenDropRate = 0;
    });
    expect(dropped.code).toBe(1);
    // Nothing was refused and nothing applied: the line claims neither.
    expect(dropped.stderr).toContain("2 rows failed (lines 2, 3), 0 applied");
    expect(dropped.stderr).not.toContain("the rest were applied");
    for (const r of access) {
      const now = fx.sim.data.get("product_access", r.product_access_id);
      expect(now?.product_access_status).toBe(other(r.product_access_status));
    }
    for (const row of await results(path)) {
      expect(row.outcome).toBe("failed");
      expect(String(row.error)).toContain("so it may hold the change");
    }
    const again = await fx.run(args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("2 applied");
  });
});
