/**
 * The compliance query's managers: the roster's manager column first, the admins of a person's
 * groups otherwise, and by_manager's one row per manager. On the hand-built dataset (with its
 * roster) plus group admins and a manager column, today 2026-03-10.
 *
 * Admins: 201 (Sales, 2; "Sales.Lead@…"), 202 (North, 3), 204 (North, 3) and 203 (Support, 4,
 * an e-mail of a tab alone). 202 is also a plain member of Sales. The roster names 104's manager
 * (with odd case and spaces) and 106's (with a tab and a byte-order mark around it), and gives 102,
 * 103 and 105 blank ones: spaces, a tab, a no-break space and a line break. Blank is what the mail
 * split trims to nothing (String.prototype.trim(), src/text/white-space.ts), which DuckDB's trim()
 * does not do for a tab or a line break.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { trimmedSql } from "../../src/text/white-space.js";
import { type Cell, openQueryRunner, type QueryRunner } from "./query-runner.js";

let runner: QueryRunner;

beforeAll(async () => {
  runner = await openQueryRunner({
    roster: true,
    extra: [
      `ALTER TABLE "user" ADD COLUMN manager_email VARCHAR`,
      `INSERT INTO "user" (user_id, firstname, lastname, email) VALUES
         (201, 'Sal', 'Lead', 'Sales.Lead@example.test'), (202, 'Nor', 'Lead', 'north.lead@example.test'),
         (203, 'Sup', 'Lead', NULL), (204, 'Sec', 'Ond', 'b.second@example.test')`,
      `UPDATE "user" SET manager_email = ' Boss@Example.test ' WHERE user_id = 104`,
      `UPDATE "user" SET manager_email = '  ' WHERE user_id = 102`,
      `UPDATE "user" SET manager_email = chr(9) WHERE user_id = 103`,
      `UPDATE "user" SET manager_email = chr(160) || chr(13) || chr(10) WHERE user_id = 105`,
      `UPDATE "user" SET manager_email = chr(9) || 'Tab.Boss@Example.test' || chr(65279) WHERE user_id = 106`,
      `UPDATE "user" SET email = chr(9) WHERE user_id = 203`,
      // An HR sheet's manager id column: user_ids (one as a sheet writes a number column with
      // gaps, one naming no one, one naming someone without an address); and a column of
      // employee numbers, one of them (202's "201") also another person's user_id.
      `ALTER TABLE "user" ADD COLUMN manager_id VARCHAR`,
      `ALTER TABLE "user" ADD COLUMN manager_number VARCHAR`,
      `UPDATE "user" SET user_organisation_identifier = 'E-204 ' WHERE user_id = 204`,
      `UPDATE "user" SET user_organisation_identifier = '201' WHERE user_id = 202`,
      `UPDATE "user" SET manager_id = '201' WHERE user_id = 101`,
      `UPDATE "user" SET manager_id = '204.0' WHERE user_id = 106`,
      `UPDATE "user" SET manager_id = '999' WHERE user_id = 107`,
      `UPDATE "user" SET manager_id = '203' WHERE user_id = 105`,
      `UPDATE "user" SET manager_number = '201' WHERE user_id = 101`,
      `UPDATE "user" SET manager_number = ' E-204' WHERE user_id = 106`,
      // Not a status left out by default: a test names it to mark 201 as gone.
      `UPDATE "user" SET user_status = 'On leave' WHERE user_id = 201`,
      // Addresses written in the manager column: 201's (gone with "on leave"); 206's, someone of
      // the roster outside the data, gone so too; and 204's, which 205, also gone so, shares.
      `INSERT INTO "user" (user_id, firstname, lastname, email, user_status) VALUES
         (205, 'Old', 'Second', 'B.Second@example.test ', 'On leave'),
         (206, 'Old', 'Boss', 'boss@example.test', 'on leave')`,
      `UPDATE "user" SET manager_email = ' SALES.lead@example.test' WHERE user_id = 107`,
      `UPDATE "user" SET manager_email = 'b.second@EXAMPLE.test' WHERE user_id = 101`,
      `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id, user_grp_group_admin) VALUES
         (21, 2, 201, 1), (22, 3, 202, 1), (23, 4, 203, 1), (24, 3, 204, 1), (25, 2, 202, 0)`,
    ],
  });
});
afterAll(() => runner.close());

/** user_id → the manager_email cells of its rows, in order (product 10 only: one row a person). */
async function managers(params: Record<string, string>): Promise<Map<number, Cell[]>> {
  const { columns, rows } = await runner.run("compliance", { product_ids: "10", ...params });
  const user = columns.indexOf("user_id");
  const manager = columns.indexOf("manager_email");
  const found = new Map<number, Cell[]>();
  for (const row of rows) {
    const id = Number(row[user]);
    found.set(id, [...(found.get(id) ?? []), row[manager] ?? null]);
  }
  return found;
}

describe("compliance's manager_email", () => {
  test("the roster's column wins; a blank one falls back to the admins of the person's groups", async () => {
    const found = await managers({});
    expect(Object.fromEntries(found)).toEqual({
      101: ["b.second@example.test"], // the roster's column
      102: ["sales.lead@example.test"], // a blank roster value is none
      103: ["b.second@example.test, north.lead@example.test"], // a tab is none: two admins, alphabetical
      104: ["boss@example.test"], // the roster, not the admins of North and Sales
      105: [null], // a blank roster value; Support's admin's e-mail is a tab alone
      106: ["tab.boss@example.test"], // trimmed as the mail split trims it
      107: ["sales.lead@example.test"], // 201's address, as written
      108: [null],
      109: [null],
      201: [null], // admin of Sales: not managed through it
      202: ["sales.lead@example.test"], // admin of North, member of Sales
      203: [null],
      204: [null],
    });
  });

  test("by_manager gives each manager a row of their own, the rest of each row unchanged", async () => {
    const found = await managers({ by_manager: "true" });
    expect(found.get(103)).toEqual(["b.second@example.test", "north.lead@example.test"]);
    expect(found.get(104)).toEqual(["boss@example.test"]);
    expect(found.get(108)).toEqual([null]);
    const one = await runner.run("compliance", { product_ids: "10" });
    const split = await runner.run("compliance", { product_ids: "10", by_manager: "true" });
    expect(split.rows).toHaveLength(one.rows.length + 1);
    const withoutManager = (rows: Cell[][]) =>
      [...new Set(rows.map((row) => JSON.stringify(row.slice(0, -1))))].sort();
    expect(withoutManager(split.rows)).toEqual(withoutManager(one.rows));
  });

  test("a manager id column stands for the roster address of the person it names", async () => {
    const found = await managers({ manager_column: "manager_id" });
    expect(found.get(101)).toEqual(["sales.lead@example.test"]); // 201's user_id
    expect(found.get(106)).toEqual(["b.second@example.test"]); // "204.0" is 204
    expect(found.get(107)).toEqual(["999"]); // no one: left for the mail split to refuse
    expect(found.get(105)).toEqual(["203"]); // someone without an address
    expect(found.get(102)).toEqual(["sales.lead@example.test"]); // no id: the group admins
  });

  test("a column of employee numbers is read as one, where a number is also a user_id", async () => {
    const found = await managers({ manager_column: "manager_number" });
    expect(found.get(101)).toEqual(["north.lead@example.test"]); // 202's number, not user 201
    expect(found.get(106)).toEqual(["b.second@example.test"]); // 204's number
  });

  test("a manager or group admin the roster marks as gone is none: the admins stand in", async () => {
    const found = await managers({ manager_column: "manager_id", excluded_statuses: "on leave" });
    expect(found.get(101)).toEqual([null]); // 201 is gone, and Company has no admin
    expect(found.get(102)).toEqual([null]); // Sales' only admin is 201
    expect(found.get(106)).toEqual(["b.second@example.test"]); // 204 is not gone
    expect(found.has(201)).toBe(false);
    const kept = await managers({ manager_column: "manager_id" });
    expect([kept.get(101), kept.get(102)]).toEqual([
      ["sales.lead@example.test"],
      ["sales.lead@example.test"],
    ]);
  });

  test("an address in the manager column of someone the roster marks as gone is none", async () => {
    const found = await managers({ excluded_statuses: "on leave" });
    // 206 has boss@example.test: North's and Sales' admins stand in, less 201, who is gone.
    expect(found.get(104)).toEqual(["b.second@example.test, north.lead@example.test"]);
    expect(found.get(107)).toEqual([null]); // 201's address, and 107 has no group admin
    expect(found.get(101)).toEqual(["b.second@example.test"]); // 204, still there, has it too
    const kept = await managers({});
    expect([kept.get(104), kept.get(107)]).toEqual([
      ["boss@example.test"],
      ["sales.lead@example.test"],
    ]);
  });

  test("the manager id lookup hash-joins the cells with the people, never pairing each with each", async () => {
    // A second condition on the cell beside the equality made it a blockwise nested loop: at
    // 400,000 people the query took 3 minutes instead of 4 s.
    for (const manager_column of ["manager_id", "manager_email"]) {
      const plan = await runner.plan("compliance", { product_ids: "10", manager_column });
      const operators = new Set(plan.match(/"name": *"[A-Z_]+"/g));
      expect(
        [...operators].filter((name) => /NL_JOIN|NESTED_LOOP|CROSS_PRODUCT/.test(name)),
      ).toEqual(
        ['"name": "CROSS_PRODUCT"'], // products × people when product_ids is set, as intended
      );
    }
  });

  test("a roster without the named column leaves the group admins for everyone", async () => {
    const found = await managers({ manager_column: "no_such_column" });
    expect(found.get(104)).toEqual([
      "b.second@example.test, north.lead@example.test, sales.lead@example.test",
    ]);
    expect(found.get(102)).toEqual(["sales.lead@example.test"]);
  });

  test("the query trims addresses with the mail split's SQL, not a copy of its own", async () => {
    // A .sql file cannot import src/text/white-space.ts: this keeps what it writes the same.
    const sql = await readFile(new URL("../../queries/compliance.sql", import.meta.url), "utf8");
    expect(sql).toContain(
      `nullif(${trimmedSql("to_json(u) ->> nullif($manager_column, '')")}, '')`,
    );
    expect(sql).toContain(`min_by(nullif(${trimmedSql("email")}, '')`);
    // Every person's address, a group admin's among them (roster_addresses).
    expect(sql).toContain(`nullif(${trimmedSql("email")}, '') AS written`);
    expect(sql).not.toMatch(/\btrim\([^)]*(manager|email)/);
    const read = (name: string) =>
      readFile(new URL(`../../queries/${name}.sql`, import.meta.url), "utf8");
    expect(await read("group-managers")).toContain(`nullif(${trimmedSql("manager.email")}, '')`);
    // The summary's roster values are trimmed so too, then folded (queries-roster-values.test.ts).
    expect(await read("compliance-summary")).toContain(
      `nfc_normalize(${trimmedSql("to_json(u) ->> nullif($by_column, '')")})`,
    );
  });

  test("an empty manager_column or by_column names no roster column, not the whole row", async () => {
    const found = await managers({ manager_column: "" });
    expect(found.get(104)).toEqual([
      "b.second@example.test, north.lead@example.test, sales.lead@example.test",
    ]);
    const { columns, rows } = await runner.run("compliance-summary", { by_column: "" });
    const scope = columns.indexOf("scope");
    expect(new Set(rows.map((row) => row[scope]))).toEqual(new Set(["overall", "group"]));
  });

  test("group-managers: an admin whose e-mail is a tab alone has no address", async () => {
    const { columns, rows } = await runner.run("group-managers", { group_id: "4" });
    const manager = columns.indexOf("manager_email");
    const admin = columns.indexOf("manager_user_id");
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row[admin]).toBe(203);
      expect(row[manager]).toBeNull();
    }
  });

  test("compliance-summary: a roster cell of white space alone is no group of its own", async () => {
    const { columns, rows } = await runner.run("compliance-summary", {
      by_column: "manager_email",
    });
    const name = columns.indexOf("name");
    const scope = columns.indexOf("scope");
    const values = rows.filter((row) => row[scope] !== "overall" && row[scope] !== "group");
    expect(values.map((row) => row[name])).not.toContainEqual(expect.stringMatching(/^\s*$/));
  });

  test("the shipped team-compliance report asks for one row per manager", () => {
    const report = runner.catalog.reports.get("team-compliance");
    expect(report?.queries).toEqual(["compliance"]);
    expect(report?.params).toMatchObject({ by_manager: true });
  });
});
