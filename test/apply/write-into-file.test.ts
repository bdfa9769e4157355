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
import { expect, test } from "vitest";
import { limitedTo } from "../helpers/file-size-limit.js";
import { runCli } from "../helpers/spawn-cli.js";
import { query } from "../roster/roster-cli.js";
import { csvFile, fixtureForFile } from "./fixture.js";
import { refuseApplied } from "./refuse-applied.js";

const fixture = fixtureForFile(67, 120);

/**
 * The file size limit, in KiB: the .wal, the journal and the results file stay below it, while
 * no block of the database file past its first (256 KiB blocks after a 12 KiB header) can be
 * written. A limit just above the file's size is not enough: the checkpoint may write its blocks
 * into free ones inside the file.
 */
const BELOW_BLOCKS = 512;

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
  const run = await runCli([...args, ...fx.flags], { via: limitedTo(BELOW_BLOCKS) });
  expect(run.code).toBe(1);
  const { db } = fx;
  // The fixture's flags ask for JSON log lines: the last is the failure's.
  const last = JSON.parse(run.stderr.trimEnd().split("\n").at(-1) ?? "{}") as { msg?: string };
  expect(last.msg).toMatch(
    new RegExp(
      `^the record of the changes was stored, but writing it into ${db} failed \\(.*File too large\\); it is kept in lms\\.duckdb\\.wal beside it: mend the cause, then run lms-export checkpoint --db ${db} to finish writing it \\(do not delete the \\.wal file\\); the results of each row are in ${path}\\.results\\.csv$`,
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

test("a file size limit: outcomes an earlier apply left in its journal stay there until the file has them", async () => {
  const fx = fixture();
  const access = fx.sim.data.list("product_access").slice(0, 40);
  const path = await csvFile(fx.dir, "extend.csv", [
    "product_access_id,product_access_expired_date",
    ...access.map((r) => `${r.product_access_id},2031-01-01T00:00:00Z`),
  ]);
  const args = ["apply", path, "--op", "product_access.edit"];
  // A database that took no outcome of this file: they are all in the journal only.
  await refuseApplied(fx.db, "extend.csv");
  const start = fx.writes();
  const stopped = await fx.run([...args, "--yes"]);
  await refuseApplied(fx.db, null);
  expect(stopped.code, stopped.stderr).toBe(1);
  const journal = `${fx.db}.apply-journal`;
  expect(existsSync(journal)).toBe(true);
  const writes = fx.writes();
  const sent = writes - start;
  expect(sent).toBeGreaterThan(0);

  const dry = await runCli([...args, "--dry-run", ...fx.flags], { via: limitedTo(BELOW_BLOCKS) });
  expect(dry.code).toBe(1);
  const last = JSON.parse(dry.stderr.trimEnd().split("\n").at(-1) ?? "{}") as { msg?: string };
  expect(last.msg).toMatch(
    new RegExp(
      `^the record of the changes was stored, but writing it into ${fx.db} failed \\(.*File too large\\); it is kept in lms\\.duckdb\\.wal beside it: mend the cause, then run lms-export checkpoint --db ${fx.db} to finish writing it \\(do not delete the \\.wal file\\); nothing was sent: run the same command again after that$`,
    ),
  );
  expect(existsSync(journal)).toBe(true);

  const checkpoint = await runCli(["checkpoint", "--db", fx.db]);
  expect(checkpoint.code, checkpoint.stderr).toBe(0);
  const again = await fx.run([...args, "--dry-run"]);
  expect(again.code, again.stderr).toBe(0);
  expect(existsSync(journal)).toBe(false);
  expect(fx.writes()).toBe(writes);
  const applied = `SELECT count(DISTINCT line)::INT AS n FROM _changes WHERE file = 'extend.csv' AND outcome = 'applied'`;
  expect(await query(fx.db, applied)).toEqual([{ n: sent }]);
});
