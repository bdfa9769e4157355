/**
 * `apply` against the simulated portal over HTTP, with a real DuckDB file: the portal ends as the
 * file says, every row is in `_changes` and the results file, and applying again changes nothing.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFile, readdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempFileName } from "../../src/files/leftover-temp-files.js";
import type { FaultConfig } from "../../src/simulator/faults.js";
import { cli, query } from "../roster/roster-cli.js";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture(47);
});
afterAll(async () => {
  await fx.close();
});

const instant = (text: unknown) => Date.parse(String(text));

describe("apply", () => {
  it("product_access.edit: 40 rows applied exactly, recorded, and a second apply is a no-op", async () => {
    const records = fx.sim.data.list("product_access").slice(0, 42);
    const same = records[40];
    const blank = records[41];
    if (!same || !blank) throw new Error("the portal has too few access records");
    const rows = records.slice(0, 40).map((r, i) => {
      if (i < 30) return `${r.product_access_id},,2027-03-31T17:00:00Z,`;
      if (i < 39) return `${r.product_access_id},expired,2026-06-01,`;
      return `${r.product_access_id},inactive,null,1`;
    });
    const lines = [
      "Product Access ID,Product Access Status,Product Access Expired Date,Product Access Certificate",
      ...rows,
      `${same.product_access_id},${same.product_access_status},,`,
      `${blank.product_access_id},,,`,
    ];
    const path = await csvFile(fx.dir, "access.csv", lines);

    const before = fx.writes();
    const dry = await fx.run(["apply", path, "--op", "product_access.edit", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(fx.writes()).toBe(before);
    expect(dry.stdout).toContain(
      `line 2  product_access ${records[0]?.product_access_id}  product_access_expired_date:`,
    );
    expect(dry.stdout).toContain('→ "2027-03-31T17:00:00Z"');
    expect(dry.stdout).not.toContain(`line 42 `);
    expect(dry.stdout).toContain("dry run: 42 rows: 40 to change, 2 unchanged; nothing was sent");

    const applied = await fx.run(["apply", path, "--op", "product_access.edit", "--yes"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(fx.writes() - before).toBe(40);
    expect(applied.stdout).toContain("40 applied, 2 unchanged, 0 failed, 0 skipped");

    for (const [i, r] of records.slice(0, 40).entries()) {
      const now = fx.sim.data.get("product_access", r.product_access_id);
      if (i < 30) {
        expect(instant(now?.product_access_expired_date)).toBe(instant("2027-03-31T17:00:00Z"));
        expect(now?.product_access_status).toBe(r.product_access_status);
      } else if (i < 39) {
        expect(now?.product_access_status).toBe("expired");
        expect(instant(now?.product_access_expired_date)).toBe(instant("2026-06-01T00:00:00Z"));
      } else {
        expect(now?.product_access_status).toBe("inactive");
        expect(now?.product_access_expired_date).toBeNull();
        expect(now?.product_access_certificate).toBe("1");
      }
    }

    const results = await query(
      fx.db,
      `SELECT * FROM read_csv('${path}.results.csv', header = true, all_varchar = true)`,
    );
    expect(results).toHaveLength(42);
    expect(Object.keys(results[0] ?? {})).toEqual([
      "Product Access ID",
      "Product Access Status",
      "Product Access Expired Date",
      "Product Access Certificate",
      "outcome",
      "error",
      "record_id",
    ]);
    expect(results.filter((r) => r.outcome === "applied")).toHaveLength(40);
    expect(results[41]).toMatchObject({ outcome: "unchanged", error: null });
    expect(results[0]?.record_id).toBe(String(records[0]?.product_access_id));
    expect(results[39]?.["Product Access Expired Date"]).toBe("null");

    const changes = await query(
      fx.db,
      `SELECT line::INT AS line, op, record_id::INT AS id, outcome, error, "before"->>'product_access_status' AS old, "after"->>'product_access_status' AS new FROM _changes ORDER BY line`,
    );
    expect(changes).toHaveLength(42);
    expect(changes[31]).toMatchObject({
      line: 33,
      op: "product_access.edit",
      id: records[31]?.product_access_id,
      outcome: "applied",
      error: null,
      old: records[31]?.product_access_status,
      new: "expired",
    });
    // The local table took the answers: a report right after sees the change.
    const local = await query(
      fx.db,
      `SELECT product_access_status AS s FROM product_access WHERE product_access_id = ${records[35]?.product_access_id}`,
    );
    expect(local).toEqual([{ s: "expired" }]);

    // The same command again sends nothing; so does the same content in a new file, its dates
    // written another way (compared as instants).
    const again = await fx.run(["apply", path, "--op", "product_access.edit", "--yes"]);
    expect(again.code, again.stderr).toBe(0);
    const copy = await csvFile(
      fx.dir,
      "access-copy.csv",
      lines.map((line) =>
        line
          .replace("2027-03-31T17:00:00Z", "2027-03-31 19:00:00+02:00")
          .replace(",2026-06-01,", ",2026-06-01T00:00:00.000Z,"),
      ),
    );
    const dryCopy = await fx.run(["apply", copy, "--op", "product_access.edit", "--dry-run"]);
    expect(dryCopy.stdout).toBe("dry run: 42 rows: 0 to change, 42 unchanged; nothing was sent\n");
    expect(fx.writes() - before).toBe(40);
  });

  it("grp.edit and user.edit: blank leaves a field, null clears it; a refused row fails alone (exit 1)", async () => {
    const groups = fx.sim.data.list("grp").slice(0, 4);
    const [g0, g1, g2, g3] = groups;
    if (!g0 || !g1 || !g2 || !g3) throw new Error("too few groups");
    const path = await csvFile(fx.dir, "groups.csv", [
      "grp_id,grp_description,grp_external_id,grp_parent_id",
      `${g0.grp_id},"Intake, autumn 2026",,`,
      `${g1.grp_id},,null,`,
      `${g2.grp_id},Leavers,,987654`,
      `${g3.grp_id},Managers,EXT-${g3.grp_id},`,
    ]);
    const result = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("1 row failed (line 4)");
    expect(fx.sim.data.get("grp", g0.grp_id)?.grp_description).toBe("Intake, autumn 2026");
    expect(fx.sim.data.get("grp", g0.grp_id)?.grp_external_id).toBe(g0.grp_external_id);
    expect(fx.sim.data.get("grp", g1.grp_id)?.grp_external_id).toBeNull();
    expect(fx.sim.data.get("grp", g2.grp_id)?.grp_description).toBe(g2.grp_description);
    expect(fx.sim.data.get("grp", g3.grp_id)?.grp_external_id).toBe(`EXT-${g3.grp_id}`);
    const results = await query(
      fx.db,
      `SELECT outcome, error FROM read_csv('${path}.results.csv', header = true, all_varchar = true)`,
    );
    expect(results.map((r) => r.outcome)).toEqual(["applied", "applied", "failed", "applied"]);
    expect(String(results[2]?.error)).toContain("grp_parent_id 987654 matches no group");

    // Four of the five people are in the roster, under the HR file's names and addresses.
    const users = fx.sim.data.userIds().slice(0, 5);
    const hr = await csvFile(fx.dir, "hr.csv", [
      "user_id,firstname,lastname,email,user_status,manager_email",
      ...users
        .slice(0, 4)
        .map((u) => `${u},Hr${u},Person,hr.${u}@example.org,active,boss@example.org`),
    ]);
    const imported = await cli(["roster", "import", hr, "--db", fx.db], fx.dir);
    expect(imported.code, imported.stderr).toBe(0);
    const people = await csvFile(fx.dir, "people.jsonl", [
      ...users.map((u) => JSON.stringify({ user_id: u, user_organisation_identifier: `ORG-${u}` })),
    ]);
    const edit = await fx.run(["apply", people, "--op", "user.edit", "--yes"]);
    expect(edit.code, edit.stderr).toBe(0);
    for (const u of users) {
      expect(fx.sim.data.get("user", u)?.user_organisation_identifier).toBe(`ORG-${u}`);
    }
    const dry = await fx.run(["apply", people, "--op", "user.edit", "--dry-run"]);
    expect(dry.stdout).toContain("0 to change, 0 unchanged, 5 applied by an earlier run");
    // The roster took the field written, kept its own names, addresses and columns, and gained
    // nobody: the portal's answer is not an HR record.
    const roster = await query(
      fx.db,
      `SELECT user_id::BIGINT AS u, firstname, email, user_status, manager_email, user_organisation_identifier AS org FROM "user" ORDER BY user_id`,
    );
    expect(roster).toEqual(
      users.slice(0, 4).map((u) => ({
        u: BigInt(u),
        firstname: `Hr${u}`,
        email: `hr.${u}@example.org`,
        user_status: "active",
        manager_email: "boss@example.org",
        org: `ORG-${u}`,
      })),
    );
  });

  it("user.edit sends an identifier the roster already holds: the roster is HR's, not the portal's", async () => {
    const users = fx.sim.data.userIds().slice(10, 13);
    const hr = await csvFile(fx.dir, "hr-ids.csv", [
      "user_id,firstname,lastname,email,user_organisation_identifier",
      ...users.map((u) => `${u},Hr${u},Person,hr.${u}@example.org,HR-${u}`),
    ]);
    const imported = await cli(["roster", "import", hr, "--db", fx.db], fx.dir);
    expect(imported.code, imported.stderr).toBe(0);
    const sync = await csvFile(fx.dir, "sync-ids.csv", [
      "user_id,user_organisation_identifier",
      ...users.map((u) => `${u},HR-${u}`),
    ]);
    const dry = await fx.run(["apply", sync, "--op", "user.edit", "--dry-run"]);
    expect(dry.stdout).toContain(
      `line 2  user ${users[0]}  user_organisation_identifier: (not known) → "HR-${users[0]}"`,
    );
    const sent = await fx.run(["apply", sync, "--op", "user.edit", "--yes"]);
    expect(sent.code, sent.stderr).toBe(0);
    for (const u of users) {
      expect(fx.sim.data.get("user", u)?.user_organisation_identifier).toBe(`HR-${u}`);
    }
    // Another file with the same values: the portal's answers to the first are known now.
    const again = await csvFile(fx.dir, "sync-ids-again.csv", [
      "user_id,user_organisation_identifier",
      ...users.map((u) => `${u},HR-${u}`),
      "",
    ]);
    const writes = fx.writes();
    const second = await fx.run(["apply", again, "--op", "user.edit", "--yes"]);
    expect(second.code, second.stderr).toBe(0);
    expect(fx.writes()).toBe(writes);
  });

  it("user.edit reads an HR sheet's headers as roster import does, and says which as which", async () => {
    const users = fx.sim.data.userIds().slice(20, 22);
    const sheet = await csvFile(fx.dir, "hr-sheet.csv", [
      "ID,Employee ID",
      ...users.map((u) => `${u},EMP-${u}`),
    ]);
    const dry = await fx.run(["apply", sheet, "--op", "user.edit", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('column \\"ID\\" is read as user_id');
    expect(dry.stderr).toContain(
      'column \\"Employee ID\\" is read as user_organisation_identifier',
    );
    expect(dry.stdout).toContain(
      `line 2  user ${users[0]}  user_organisation_identifier: (not known) → "EMP-${users[0]}"`,
    );
    const sent = await fx.run(["apply", sheet, "--op", "user.edit", "--yes"]);
    expect(sent.code, sent.stderr).toBe(0);
    const identifiers = users.map((u) => fx.sim.data.get("user", u)?.user_organisation_identifier);
    expect(identifiers).toEqual(users.map((u) => `EMP-${u}`));
  });

  it("user_grp.create: a new intake into a group, an existing link left alone", async () => {
    const group = fx.sim.data.list("grp").at(-1)?.grp_id as number;
    const intake = fx.outsiders(group, 12);
    const member = fx.sim.data.list("user_grp").find((l) => l.user_grp_grp_id === group);
    if (!member) throw new Error(`group ${group} has no members to ask for again`);
    const lines = ["user_grp_user_id,user_grp_grp_id,user_grp_group_admin"];
    for (const [i, u] of intake.entries()) lines.push(`${u},${group},${i === 0 ? 1 : ""}`);
    // Asked with the other admin value: a link cannot be edited, so it stays, with a warning.
    if (member) {
      lines.push(
        `${member.user_grp_user_id},${group},${member.user_grp_group_admin === 1 ? 0 : 1}`,
      );
    }
    const path = await csvFile(fx.dir, "intake.csv", lines);
    const result = await fx.run(["apply", path, "--op", "user_grp.create", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("12 applied, 1 unchanged");
    expect(result.stderr).toContain(
      `user ${member.user_grp_user_id} is already in group ${group} with user_grp_group_admin ${member.user_grp_group_admin}; the interface cannot change a link`,
    );
    for (const u of intake) expect(fx.linksOf(u, group)).toBe(1);
    const admin = fx.sim.data
      .list("user_grp")
      .find((l) => l.user_grp_user_id === intake[0] && l.user_grp_grp_id === group);
    expect(admin?.user_grp_group_admin).toBe(1);
    const results = await query(
      fx.db,
      `SELECT record_id FROM read_csv('${path}.results.csv', header = true, all_varchar = true)`,
    );
    expect(results[0]?.record_id).toBe(String(admin?.user_grp_id));
    const dry = await fx.run(["apply", path, "--op", "user_grp.create", "--dry-run"]);
    expect(dry.stdout).toContain("0 to change");
  });

  it("user_grp.create from a stale database: links made since are unchanged, and a different admin value is in the results", async () => {
    const group = fx.sim.data.list("grp").at(0)?.grp_id as number;
    const [first, second] = fx.outsiders(group, 2);
    const stale = join(fx.dir, "stale.duckdb");
    await copyFile(fx.db, stale);
    const made = await csvFile(fx.dir, "made.csv", [
      "user_grp_user_id,user_grp_grp_id,user_grp_group_admin",
      `${first},${group},1`,
      `${second},${group},0`,
    ]);
    expect((await fx.run(["apply", made, "--op", "user_grp.create", "--yes"])).code).toBe(0);
    // The same people asked for again from a copy taken before: the portal has both links.
    const again = await csvFile(fx.dir, "again.csv", [
      "user_grp_user_id,user_grp_grp_id,user_grp_group_admin",
      `${first},${group},0`,
      `${second},${group},`,
    ]);
    const writes = fx.writes();
    const result = await fx.runWith(["apply", again, "--op", "user_grp.create", "--yes"], {
      db: stale,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("0 applied, 2 unchanged");
    expect(fx.writes()).toBe(writes);
    expect(fx.linksOf(first as number, group)).toBe(1);
    const rows = await query(
      stale,
      `SELECT outcome, error FROM read_csv('${again}.results.csv', header = true, all_varchar = true)`,
    );
    expect(rows).toEqual([
      {
        outcome: "unchanged",
        error: `line 2: user ${first} is already in group ${group} with user_grp_group_admin 1; the interface cannot change a link, so it stays`,
      },
      { outcome: "unchanged", error: null },
    ]);
    const recorded = await query(
      stale,
      `SELECT outcome, "before" IS NOT NULL AS known FROM _changes WHERE file = 'again.csv' ORDER BY line`,
    );
    expect(recorded).toEqual([
      { outcome: "unchanged", known: true },
      { outcome: "unchanged", known: true },
    ]);
  });

  it("reads a workbook: people's headers, rows numbered as in the sheet", async () => {
    const groups = fx.sim.data.list("grp").slice(-3);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("Changes");
    sheet.addRow(["Grp ID", "Grp External Name"]);
    for (const g of groups) sheet.addRow([g.grp_id, `Team ${g.grp_id}`]);
    const path = join(fx.dir, "teams.xlsx");
    await workbook.xlsx.writeFile(path);
    const dry = await fx.run(["apply", path, "--op", "grp.edit", "--dry-run"]);
    expect(dry.stdout).toContain(`row 2  grp ${groups[0]?.grp_id}  grp_external_name:`);
    const result = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    for (const g of groups) {
      expect(fx.sim.data.get("grp", g.grp_id)?.grp_external_name).toBe(`Team ${g.grp_id}`);
    }
    const sets = await query(
      fx.db,
      "SELECT file, op, rows::INT AS rows FROM _change_sets WHERE file = 'teams.xlsx'",
    );
    expect(sets).toEqual([{ file: "teams.xlsx", op: "grp.edit", rows: 3 }]);
    const results = await query(
      fx.db,
      `SELECT "Grp ID" AS id, outcome FROM read_csv('${path}.results.csv', header = true, all_varchar = true)`,
    );
    expect(results).toEqual(groups.map((g) => ({ id: String(g.grp_id), outcome: "applied" })));
  });

  it("answers lost after the write: edits are sent again, creates checked first, no duplicate link", async () => {
    fx.sim.faults.writeThenDropRate = 0.5;
    try {
      const group = fx.sim.data.list("grp").at(-2)?.grp_id as number;
      const intake = fx.outsiders(group, 20);
      const path = await csvFile(fx.dir, "lossy-intake.csv", [
        "user_grp_user_id,user_grp_grp_id",
        ...intake.map((u) => `${u},${group}`),
      ]);
      const listsBefore = fx.sim.stats.byOperation.get("user_grp/get_all") ?? 0;
      const result = await fx.run(["apply", path, "--op", "user_grp.create", "--yes"]);
      expect(result.code, result.stderr).toBe(0);
      for (const u of intake) expect(fx.linksOf(u, group)).toBe(1);
      // At least one answer was lost (20 draws at 0.5), and each was followed by a check.
      expect((fx.sim.stats.byOperation.get("user_grp/get_all") ?? 0) - listsBefore).toBeGreaterThan(
        0,
      );

      // Edits: 40 rows at 0.3, so some answers are lost (all 40 kept: 0.7^40) and every row
      // gets through within its 8 attempts (a row lost 8 times running: 0.3^8 each).
      fx.sim.faults.writeThenDropRate = 0.3;
      const access = fx.sim.data.list("product_access").slice(50, 90);
      const edits = await csvFile(fx.dir, "lossy-access.csv", [
        "product_access_id,product_access_status",
        ...access.map((r) => `${r.product_access_id},inactive`),
      ]);
      const editsBefore = fx.sim.stats.byOperation.get("product_access/edit") ?? 0;
      const edited = await fx.run(["apply", edits, "--op", "product_access.edit", "--yes"]);
      expect(edited.code, edited.stderr).toBe(0);
      expect(
        (fx.sim.stats.byOperation.get("product_access/edit") ?? 0) - editsBefore,
      ).toBeGreaterThan(access.length);
      for (const r of access) {
        expect(fx.sim.data.get("product_access", r.product_access_id)?.product_access_status).toBe(
          "inactive",
        );
      }
    } finally {
      fx.sim.faults.writeThenDropRate = 0;
    }
    // No temporary results file is left behind.
    expect((await readdir(fx.dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("an edit sends only the fields the plan shows: a change made in the portal since survives", async () => {
    const record = fx.sim.data.list("product_access").at(-1);
    if (!record) throw new Error("no access records");
    const id = record.product_access_id;
    const stale = record.product_access_expired_date;
    // A colleague, from a database of their own, sets the date in the portal.
    const theirs = join(fx.dir, "colleague.duckdb");
    await copyFile(fx.db, theirs);
    const colleague = await csvFile(fx.dir, "colleague.csv", [
      "product_access_id,product_access_expired_date",
      `${id},2029-06-30T00:00:00Z`,
    ]);
    const set = await fx.runWith(["apply", colleague, "--op", "product_access.edit", "--yes"], {
      db: theirs,
    });
    expect(set.code, set.stderr).toBe(0);
    // This file gives the date the local copy still holds, and a new status.
    const status = record.product_access_status === "inactive" ? "active" : "inactive";
    const path = await csvFile(fx.dir, "stale-date.csv", [
      "product_access_id,product_access_status,product_access_expired_date",
      `${id},${status},${stale === null ? "null" : String(stale)}`,
    ]);
    const result = await fx.run(["apply", path, "--op", "product_access.edit", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`product_access_status: "${record.product_access_status}" →`);
    expect(result.stdout).not.toContain("product_access_expired_date:");
    const now = fx.sim.data.get("product_access", id);
    expect(now?.product_access_status).toBe(status);
    expect(instant(now?.product_access_expired_date)).toBe(instant("2029-06-30T00:00:00Z"));
  });

  it("JSON lines: null clears a field, a key left out leaves it", async () => {
    const records = fx.sim.data
      .list("product_access")
      .filter((r) => r.product_access_expired_date !== null)
      .slice(-3, -1);
    const [cleared, kept] = records;
    if (!cleared || !kept) throw new Error("too few dated access records");
    const path = await csvFile(fx.dir, "clear.jsonl", [
      JSON.stringify({
        product_access_id: cleared.product_access_id,
        product_access_expired_date: null,
      }),
      JSON.stringify({
        product_access_id: kept.product_access_id,
        product_access_status: "expired",
      }),
    ]);
    const dry = await fx.run(["apply", path, "--op", "product_access.edit", "--dry-run"]);
    expect(dry.stdout).toContain(
      `line 1  product_access ${cleared.product_access_id}  product_access_expired_date:`,
    );
    const result = await fx.run(["apply", path, "--op", "product_access.edit", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    const now = fx.sim.data.get("product_access", cleared.product_access_id);
    expect(now?.product_access_expired_date).toBeNull();
    const other = fx.sim.data.get("product_access", kept.product_access_id);
    expect(instant(other?.product_access_expired_date)).toBe(
      instant(kept.product_access_expired_date),
    );
  });

  it("user_grp.create: a link made in the portal since the extract is found, not made again", async () => {
    await createsOnlyTheMissingLink(0, "since-extract.csv", {});
  });

  it("a results file a killed apply left half written is removed; a running writer's is kept", async () => {
    const group = fx.sim.data.list("grp").at(2);
    if (!group) throw new Error("no group");
    const path = await csvFile(fx.dir, "leftover.csv", [
      "grp_id,grp_description",
      `${group.grp_id},Leftover check`,
    ]);
    // A writer killed mid-file (its process gone), and one still writing (a live process).
    const dead = spawnSync("true").pid;
    const live = spawn("sleep", ["30"]);
    const results = join(fx.dir, "leftover.csv.results.csv");
    const leftover = tempFileName(results, dead, "0badf00d");
    const writing = tempFileName(results, live.pid ?? 0, "0badf00d");
    try {
      await writeFile(leftover, "line_,half");
      await writeFile(writing, "line_,half");
      const result = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
      expect(result.code, result.stderr).toBe(0);
      const names = await readdir(fx.dir);
      expect(names).toContain("leftover.csv.results.csv");
      expect(names.filter((n) => n.startsWith(".leftover.csv.results.csv."))).toEqual([
        basename(writing),
      ]);
    } finally {
      live.kill();
    }
  });

  it("user_grp.create: a portal that ORs criteria does not hide an existing link", async () => {
    // The link made since the extract is then buried under a dozen newer links of the same
    // group: a page of the user's OR the group's links, newest first, would not reach it.
    await createsOnlyTheMissingLink(1, "criteria-or.csv", { criteriaAnyOf: true }, 12);
  });

  it("user_grp.create: a portal refusing pages larger than the default limit (10) still gets its creates", async () => {
    await createsOnlyTheMissingLink(3, "small-pages.csv", { refuseLimitAbove: 10 });
  });
});

/**
 * Two creates into the group at `groupAt`: one of a link made in the portal since the extract
 * (then `buried` newer links of that group), one new. Applied with `faults` set, exactly the
 * new one is created and each link exists once.
 */
async function createsOnlyTheMissingLink(
  groupAt: number,
  file: string,
  faults: Partial<FaultConfig>,
  buried = 0,
): Promise<void> {
  const group = fx.sim.data.list("grp").at(groupAt)?.grp_id as number;
  const [theirs, ours, ...later] = fx.outsiders(group, 2 + buried);
  if (theirs === undefined || ours === undefined || later.length < buried) {
    throw new Error("too few outsiders");
  }
  for (const user of [theirs, ...later]) {
    fx.sim.data.createUserGroup({
      user_grp_user_id: user,
      user_grp_grp_id: group,
      user_grp_group_admin: 0,
    });
  }
  const path = await csvFile(fx.dir, file, [
    "user_grp_user_id,user_grp_grp_id",
    `${theirs},${group}`,
    `${ours},${group}`,
  ]);
  const creates = fx.sim.stats.byOperation.get("user_grp/create") ?? 0;
  const before = { ...fx.sim.faults };
  Object.assign(fx.sim.faults, faults);
  try {
    const result = await fx.run(["apply", path, "--op", "user_grp.create", "--yes"]);
    expect(result.code, result.stderr).toBe(0);
    // The link someone made since the extract was there already: unchanged, as from a fresh
    // database.
    expect(result.stdout).toContain("1 applied, 1 unchanged");
  } finally {
    Object.assign(fx.sim.faults, before);
  }
  expect((fx.sim.stats.byOperation.get("user_grp/create") ?? 0) - creates).toBe(1);
  expect(fx.linksOf(theirs, group)).toBe(1);
  expect(fx.linksOf(ours, group)).toBe(1);
}
