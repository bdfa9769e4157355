/**
 * An apply whose record (`_changes`, `_change_sets`, the answered records in the local table) was
 * committed but could not be written into the database file (here the process's file size limit,
 * `ulimit -f`: "File too large"). DuckDB ignores a failed write at close, so the apply was
 * reported as done with its record only in the .wal: now it fails, saying the record waits there
 * and how to finish writing it, after writing the results file. Nothing is lost: the next read
 * shows the record, the advised checkpoint writes it in, and a rerun sends nothing again. A real
 * simulated portal over HTTP, the real CLI under a real limit, real DuckDB files.
 */
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { expect, test } from "vitest";
import { limitedTo } from "../helpers/file-size-limit.js";
import { runCli } from "../helpers/spawn-cli.js";
import { query } from "../roster/roster-cli.js";
import { csvFile, fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(67, 120);

const EXPIRED =
  "SELECT count(*)::INT AS n FROM product_access WHERE product_access_status = 'expired'";
const APPLIED = "SELECT count(*)::INT AS n FROM _changes WHERE outcome = 'applied'";

test("a file size limit: apply fails once the portal changed, its record kept in the .wal", async () => {
  const fx = fixture();
  const access = fx.sim.data
    .list("product_access")
    .filter((r) => r.product_access_status !== "expired")
    .slice(0, 200);
  const path = await csvFile(fx.dir, "expire.csv", [
    "product_access_id,product_access_status",
    ...access.map((r) => `${r.product_access_id},expired`),
  ]);
  const [before] = await query(fx.db, EXPIRED);
  const args = ["apply", path, "--op", "product_access.edit", "--yes", "--max-changes", "1000"];
  // Room for the file as it is, not for the changed blocks written beside the old ones.
  const kib = Math.ceil((await stat(fx.db)).size / 1024) + 64;
  const run = await runCli([...args, ...fx.flags], { via: limitedTo(kib) });
  expect(run.code).toBe(1);
  const { db } = fx;
  // The fixture's flags ask for JSON log lines: the last is the failure's.
  const last = JSON.parse(run.stderr.trimEnd().split("\n").at(-1) ?? "{}") as { msg?: string };
  expect(last.msg).toMatch(
    new RegExp(
      `^the record of the changes was stored, but writing it into ${db} failed \\(.*File too large\\); it is kept in lms\\.duckdb\\.wal beside it: mend the cause, then run lms-export checkpoint --db ${db} to finish writing it \\(do not delete the \\.wal file\\)$`,
    ),
  );
  expect(existsSync(`${db}.wal`)).toBe(true);
  // The .wal holds the record: the journal of outcomes went once they were all in the database.
  expect(existsSync(`${db}.apply-journal`)).toBe(false);
  // The portal changed, and the results file says so row by row.
  for (const r of access) {
    expect(fx.sim.data.get("product_access", r.product_access_id)?.product_access_status).toBe(
      "expired",
    );
  }
  const results = await query(
    db,
    `SELECT outcome, count(*)::INT AS n FROM read_csv('${path}.results.csv', header = true, all_varchar = true) GROUP BY outcome`,
  );
  expect(results).toEqual([{ outcome: "applied", n: access.length }]);

  // The next read shows the record from the log; the advised command writes it into the file.
  expect(await query(db, APPLIED)).toEqual([{ n: access.length }]);
  const checkpoint = await runCli(["checkpoint", "--db", db]);
  expect(checkpoint.code, checkpoint.stderr).toBe(0);
  expect(existsSync(`${db}.wal`)).toBe(false);
  expect(await query(db, APPLIED)).toEqual([{ n: access.length }]);
  expect(await query(db, EXPIRED)).toEqual([{ n: Number(before?.n) + access.length }]);

  const writes = fx.writes();
  const again = await fx.run(args);
  expect(again.code, again.stderr).toBe(0);
  expect(fx.writes()).toBe(writes);
});
