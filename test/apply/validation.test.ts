/**
 * Every way a change file can be wrong is found before anything is sent: one message listing the
 * problems with their lines, exit code 2, and not one write request at the simulator.
 */

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCell } from "../../src/apply/cell-value.js";
import { writeDamagedParquet } from "../helpers/damaged-parquet.js";
import { cli, query } from "../roster/roster-cli.js";
import { type ApplyFixture, csvFile, startFixture } from "./fixture.js";

let fx: ApplyFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.close();
});

/** Runs apply on the lines and expects a refusal that sent nothing. */
async function refused(op: string, lines: string[], extra: string[] = []): Promise<string> {
  const path = await csvFile(fx.dir, `bad-${Math.random().toString(36).slice(2)}.csv`, lines);
  return refusedFile(op, path, extra);
}

/** Runs apply on the file and expects a refusal that sent nothing. */
async function refusedFile(op: string, path: string, extra: string[] = []): Promise<string> {
  const before = fx.writes();
  const result = await fx.run(["apply", path, "--op", op, "--yes", ...extra]);
  expect(result.code, result.stderr).toBe(2);
  expect(fx.writes()).toBe(before);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  return result.stderr;
}

const accessIds = () => fx.sim.data.list("product_access").map((r) => r.product_access_id);
const groupIds = () => fx.sim.data.list("grp").map((r) => r.grp_id);

describe("apply refuses a bad file and sends nothing", () => {
  it("a Parquet file that fails to decode part-way, not sent as its first rows", async () => {
    const path = join(fx.dir, "damaged.parquet");
    const [a] = accessIds();
    // The file is read whole before its rows are checked: the damage is what is said.
    await writeDamagedParquet(
      path,
      `SELECT ${a} AS product_access_id, 'expired' AS product_access_status, md5(i::VARCHAR) AS note FROM range(100000) t(i)`,
      "note",
    );
    const message = await refusedFile("product_access.edit", path);
    expect(message).toMatch(
      /^lms-export: damaged\.parquet cannot be read as Parquet \(.*Error: .+\)$/m,
    );
  });

  it("a misspelt column, with the nearest writable field", async () => {
    const [a] = accessIds();
    const message = await refused("product_access.edit", [
      "product_access_id,product_acess_status",
      `${a},expired`,
    ]);
    expect(message).toContain('column "product_acess_status" is not a writable field');
    expect(message).toContain("did you mean product_access_status?");
  });

  it("an unknown column is pointed at a close writable field only, never at the id column the file has", async () => {
    const hr = await refused("user.edit", ["User ID,Department", "1001,E-1"]);
    expect(hr).toContain(
      'column "Department" is not a writable field of user for user.edit (writable: user_organisation_identifier)',
    );
    expect(hr).not.toContain("did you mean");
    const typo = await refused("user.edit", ["user_id,user_organisation_identifer", "1001,E-1"]);
    expect(typo).toContain("did you mean user_organisation_identifier?");
    // With no id column, a name close to it is the id column misspelt.
    const noId = await refused("user.edit", ["usr_id,user_organisation_identifier", "1001,E-1"]);
    expect(noId).toContain(
      'column "usr_id" is not a writable field of user for user.edit; did you mean user_id?',
    );
  });

  it("a file with no id column says so once, not again as a blank id on every row", async () => {
    const lines = [
      "user_organisation_identifier",
      ...Array.from({ length: 5 }, (_, i) => `E-${i}`),
    ];
    const message = await refused("user.edit", lines);
    expect(message).toContain(
      "1 problem, nothing was sent: header: no user_id column; user.edit needs one.",
    );
    expect(message).not.toContain("is blank");
  });

  it("a read-only field is not writable either", async () => {
    const [a] = accessIds();
    const message = await refused("product_access.edit", [
      "product_access_id,product_access_user_id",
      `${a},7`,
    ]);
    expect(message).toContain('"product_access_user_id" is not a writable field');
  });

  it("wrong types, enum values, dates, blank and repeated ids, all with their lines", async () => {
    const [a, b, c] = accessIds();
    const message = await refused("product_access.edit", [
      "product_access_id,product_access_status,product_access_expired_date,product_access_product_id",
      `${a},expird,2026-12-31,`,
      `${b},active,31/12/2026,`,
      `${c},,2026-02-30,`,
      `${a},active,,`,
      ",active,,",
      `x${c},active,,`,
      `${b}0,,,1.5`,
    ]);
    expect(message).toContain("7 problems, nothing was sent");
    expect(message).toContain(
      'line 2: product_access_status must be one of active, inactive, expired, got "expird"',
    );
    expect(message).toContain("line 3: product_access_expired_date must be an ISO 8601 date");
    expect(message).toContain(
      'line 4: product_access_expired_date must be an ISO 8601 date or date-time (e.g. 2026-12-31 or 2026-12-31T17:00:00Z), got "2026-02-30"',
    );
    expect(message).toContain(`line 5: product_access_id ${a} is also on line 2`);
    expect(message).toContain("line 6: product_access_id is blank");
    expect(message).toContain(`line 7: product_access_id must be a positive integer, got "x${c}"`);
    expect(message).toContain('line 8: product_access_product_id must be an integer, got "1.5"');
  });

  it("an integer past 2^53 - 1 is too large, said with its digits as written, not 'not an integer'", async () => {
    const [g] = groupIds();
    if (g === undefined) throw new Error("no groups");
    const message = await refused("grp.edit", [
      "grp_id,grp_parent_id",
      `${g},9007199254740993`,
      `${g + 1},-9007199254740993`,
      "9007199254740993,",
      `${g + 2},9007199254740991`,
    ]);
    expect(message).toContain("3 problems");
    expect(message).toContain(
      'line 2: grp_parent_id "9007199254740993" is too large: at most 9007199254740991 (2^53 - 1)',
    );
    expect(message).toContain(
      'line 3: grp_parent_id "-9007199254740993" is too small: at least -9007199254740991 (-(2^53 - 1))',
    );
    expect(message).toContain('line 4: grp_id "9007199254740993" is too large: at most');
    expect(message).not.toContain("9007199254740992");
    expect(message).not.toContain("not an integer");
  });

  it("JSON: a number past 2^53, which JSON.parse rounds, is refused rather than sent as another id", async () => {
    const [g] = groupIds();
    const path = await csvFile(fx.dir, "big-ids.jsonl", [
      `{"grp_id": ${g}, "grp_external_id": 9007199254740993}`,
      `{"grp_id": ${g}, "grp_parent_id": 9007199254740993}`,
      `{"grp_id": ${g}, "grp_parent_id": "9007199254740993"}`,
    ]);
    const message = await refusedFile("grp.edit", path);
    // A text field takes the digits quoted; an integer field cannot take them either way.
    expect(message).toContain(
      "line 1: grp_external_id is a JSON number past 2^53 (read as 9007199254740992), which JSON readers round: write it in quotes, as a string",
    );
    expect(message).toContain(
      "line 2: grp_parent_id (a JSON number, read rounded as 9007199254740992) is too large: at most 9007199254740991 (2^53 - 1)",
    );
    expect(message).toContain('line 3: grp_parent_id "9007199254740993" is too large');
  });

  it("a CSV in UTF-16 or another encoding, and a legacy .xls: what to save instead, in words fit for apply", async () => {
    const [g] = groupIds();
    const text = `grp_id,grp_description\r\n${g},Zoë\r\n`;
    const files: [string, Buffer, string][] = [
      // Excel's "Unicode Text", with its byte order mark, and a UTF-16 file written without one.
      [
        "u16.csv",
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
        "UTF-16",
      ],
      ["u16-no-bom.csv", Buffer.from(text, "utf16le"), "UTF-16"],
      ["latin1.csv", Buffer.from(text, "latin1"), "line 2"],
      ["old.xls", Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), ".xlsx"],
    ];
    for (const [name, bytes, what] of files) {
      const path = join(fx.dir, name);
      await writeFile(path, bytes);
      const message = await refusedFile("grp.edit", path);
      expect(message).toContain(`${name} is `);
      expect(message).toContain(what);
      expect(message).toContain("CSV UTF-8");
      expect(message).toContain("run the command");
      expect(message).not.toContain("import");
    }
  });

  it("JSON: a boolean, a fraction, an object or a list for a text field is refused, not sent as its JSON text", async () => {
    const [g0, g1, g2, g3, g4] = groupIds();
    const path = await csvFile(fx.dir, "unquoted.jsonl", [
      JSON.stringify({ grp_id: g0, grp_external_id: true }),
      JSON.stringify({ grp_id: g1, grp_external_id: 0.1 }),
      JSON.stringify({ grp_id: g2, grp_description: { a: 1 }, grp_external_name: ["x"] }),
      // A whole number is its digits, as a workbook's whole number shown in General format.
      JSON.stringify({ grp_id: g3, grp_external_id: 12345 }),
      // A quoted value is text, whatever it reads as.
      JSON.stringify({ grp_id: g4, grp_external_id: "true", grp_external_name: "0.1" }),
    ]);
    const message = await refusedFile("grp.edit", path);
    expect(message).toContain("4 problems, nothing was sent");
    expect(message).toContain(
      'line 1: grp_external_id is text, but column "grp_external_id" holds the JSON boolean true, not a string: write it in quotes ("true") if that is the text meant',
    );
    expect(message).toContain(
      'line 2: grp_external_id is text, but column "grp_external_id" holds the JSON number 0.1, not a string',
    );
    expect(message).toContain(
      'line 3: grp_description is text, but column "grp_description" holds a JSON object, not a string: write it in quotes ("{\\"a\\":1}")',
    );
    expect(message).toContain(
      'line 3: grp_external_name is text, but column "grp_external_name" holds a JSON list, not a string: write it in quotes ("[\\"x\\"]")',
    );
    expect(message).not.toContain("line 4");
    expect(message).not.toContain("line 5");
  });

  it("a very long cell is quoted cut short: the one line stays readable", async () => {
    const [a, b] = accessIds();
    const message = await refused("product_access.edit", [
      `product_access_id,product_access_status,${"z".repeat(5000)}`,
      `${a},${"x".repeat(50_000)},`,
      `${"9".repeat(30_000)},,`,
      `${b},,`,
    ]);
    expect(message).toContain(`got "${"x".repeat(60)}"... (50000 characters)`);
    expect(message).toContain(
      `product_access_id "${"9".repeat(60)}"... (30000 characters) is too large`,
    );
    expect(message).toContain(`column "${"z".repeat(60)}"... (5000 characters) is not a writable`);
    expect(message.length).toBeLessThan(2000);
  });

  it("null on a field the portal requires", async () => {
    const [g] = groupIds();
    const message = await refused("grp.edit", ["grp_id,grp_name", `${g},null`]);
    expect(message).toContain("line 2: grp_name cannot be cleared (null)");
    const [a] = accessIds();
    const status = await refused("product_access.edit", [
      "product_access_id,product_access_status",
      `${a},null`,
    ]);
    expect(status).toContain("product_access_status cannot be cleared (null): give one of active");
    // NULL as SQL writes it is null too, never the text "NULL".
    const upper = await refused("grp.edit", ["grp_id,grp_name", `${g},NULL`]);
    expect(upper).toContain("line 2: grp_name cannot be cleared (null)");
  });

  it("NULL or Null clears a field as null does", () => {
    const field = { name: "grp_external_name", type: "string", nullable: true } as const;
    for (const text of ["null", "NULL", "Null"])
      expect(parseCell(field, text)).toEqual({ value: null });
    expect(parseCell(field, "nullable")).toEqual({ value: "nullable" });
  });

  it("the id column missing, and a create without its references", async () => {
    expect(await refused("grp.edit", ["grp_name", "x"])).toContain("header: no grp_id column");
    const [g] = groupIds();
    const message = await refused("user_grp.create", [
      "user_grp_grp_id,user_grp_group_admin",
      `${g},0`,
    ]);
    expect(message).toContain("header: no user_grp_user_id column; user_grp.create needs one");
  });

  it("an edit file of ids alone, which would come back all unchanged, naming the fields it sets", async () => {
    const [g0, g1] = groupIds();
    const message = await refused("grp.edit", ["grp_id", `${g0}`, `${g1}`]);
    expect(message).toContain(
      "header: no column of a field to set; grp.edit sets grp_name, grp_description, grp_parent_id, grp_external_id, grp_external_name",
    );
    expect(message).toContain("1 problem,");
  });

  it("a create that names the same link twice or leaves a reference blank", async () => {
    const [g] = groupIds();
    const user = fx.sim.data.userIds()[0] as number;
    const message = await refused("user_grp.create", [
      "user_grp_user_id,user_grp_grp_id",
      `${user},${g}`,
      `${user},${g}`,
      `,${g}`,
    ]);
    expect(message).toContain(`line 3: user ${user} in group ${g} is also on line 2`);
    expect(message).toContain("line 4: user_grp_user_id is required for user_grp.create");
  });

  it("a group-admin value other than 0 or 1: a link cannot be changed once made", async () => {
    const [g] = groupIds();
    const [u1, u2, u3] = fx.outsiders(g as number, 3);
    const message = await refused("user_grp.create", [
      "user_grp_user_id,user_grp_grp_id,user_grp_group_admin",
      `${u1},${g},-1`,
      `${u2},${g},2`,
      `${u3},${g},1`,
    ]);
    expect(message).toContain("2 problems");
    expect(message).toContain('line 2: user_grp_group_admin must be one of 0, 1, got "-1"');
    expect(message).toContain('line 3: user_grp_group_admin must be one of 0, 1, got "2"');
    expect(fx.linksOf(u3 as number, g as number)).toBe(0);
  });

  it("lists the first 20 problems and counts the rest", async () => {
    const ids = accessIds().slice(0, 30);
    const message = await refused("product_access.edit", [
      "product_access_id,product_access_status",
      ...ids.map((id) => `${id},gone`),
    ]);
    expect(message).toContain("30 problems");
    expect(message).toContain("line 21:");
    expect(message).not.toContain("line 22:");
    expect(message).toContain("and 10 more");
  });

  it("ids not in the local database: a warning, an error with --strict", async () => {
    const [a] = accessIds();
    const lines = ["product_access_id,product_access_status", `${a},inactive`, "99999999,inactive"];
    const message = await refused("product_access.edit", lines, ["--strict"]);
    expect(message).toContain("line 3: product_access_id 99999999 is not in the local database");
    const path = await csvFile(fx.dir, "unknown.csv", lines);
    const dry = await fx.run(["apply", path, "--op", "product_access.edit", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain("product_access_id 99999999 is not in the local database");
    expect(dry.stdout).toContain(
      'line 3  product_access 99999999  product_access_status: (not in the local database) → "inactive"',
    );
  });

  it("user.edit without a roster: users the links and access records name are known, even with --strict", async () => {
    const user = fx.sim.data.list("product_access")[0]?.product_access_user_id;
    const lines = ["user_id,user_organisation_identifier", `${user},ORG-7`, "99999999,ORG-8"];
    const message = await refused("user.edit", lines, ["--strict"]);
    expect(message).toContain("1 ids not in the local database");
    expect(message).toContain("line 3: user_id 99999999 is not in the local database");
    const path = await csvFile(fx.dir, "known-user.csv", lines.slice(0, 2));
    const dry = await fx.run(["apply", path, "--op", "user.edit", "--dry-run", "--strict"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).not.toContain("not in the local database");
    expect(dry.stdout).toContain(
      `line 2  user ${user}  user_organisation_identifier: (not known) → "ORG-7"`,
    );
  });

  it("more changes than --max-changes, and no terminal without --yes", async () => {
    const ids = accessIds().slice(0, 5);
    const lines = [
      "product_access_id,product_access_status,product_access_certificate",
      ...ids.map((id) => `${id},inactive,1`),
    ];
    const max = await refused("product_access.edit", lines, ["--max-changes", "4"]);
    expect(max).toContain("would change 5 records, more than --max-changes 4");
    const before = fx.writes();
    const path = await csvFile(fx.dir, "no-yes.csv", lines);
    // Refused before the changes are listed; a dry run lists them and says the run would not be.
    const real = await fx.run([
      "apply",
      path,
      "--op",
      "product_access.edit",
      "--yes",
      "--max-changes",
      "4",
    ]);
    expect(real.stdout).not.toContain("inactive");
    const dry = await fx.run([
      "apply",
      path,
      "--op",
      "product_access.edit",
      "--dry-run",
      "--max-changes",
      "4",
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("inactive");
    expect(dry.stderr).toContain(
      "without --dry-run this is refused: no-yes.csv would change 5 records, more than --max-changes 4",
    );
    const result = await fx.run(["apply", path, "--op", "product_access.edit"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("pass --yes");
    expect(fx.writes()).toBe(before);
    const unknownOp = await fx.run(["apply", path, "--op", "product.edit", "--yes"]);
    expect(unknownOp.code).toBe(2);
    expect(unknownOp.stderr).toContain("--op must be one of product_access.edit, grp.edit");
    // Nothing refused left a trace in the bookkeeping either.
    expect(await query(fx.db, "SELECT count(*)::INT AS n FROM _changes")).toEqual([{ n: 0 }]);
  });

  it("a database that does not exist: extract first", async () => {
    const path = await csvFile(fx.dir, "no-db.csv", ["grp_id,grp_name", "1,x"]);
    const missing = `${fx.dir}/missing.duckdb`;
    const result = await cli(
      ["apply", path, "--op", "grp.edit", "--dry-run", "--db", missing],
      fx.dir,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `database ${missing} does not exist; run "lms-export extract" first`,
    );
  });

  it("a dry run sends no write", async () => {
    const ids = accessIds().slice(0, 5);
    const path = await csvFile(fx.dir, "dry.csv", [
      "product_access_id,product_access_status",
      ...ids.map((id) => `${id},expired`),
    ]);
    const before = fx.writes();
    const dry = await fx.run(["apply", path, "--op", "product_access.edit", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(fx.writes()).toBe(before);
    expect(dry.stdout).toMatch(/dry run: 5 rows: \d+ to change/);
  });

  it("a workbook's error cells and numbers shown otherwise than they read, with row and column", async () => {
    const [a, b, c, d, e] = groupIds();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("changes");
    sheet.addRow(["grp_id", "grp_external_id"]);
    sheet.addRow([a, { formula: "VLOOKUP(A2,Sheet2!A:B,2,FALSE)", result: { error: "#N/A" } }]);
    sheet.addRow([b, { error: "#REF!" }]);
    sheet.addRow([c, 123]);
    sheet.getCell("B4").numFmt = "00000";
    sheet.addRow([d, 0.1 + 0.2]);
    // A whole number in General shows as its digits: taken as they are.
    sheet.addRow([e, 4711]);
    const path = join(fx.dir, "lookups.xlsx");
    await workbook.xlsx.writeFile(path);
    const message = await refusedFile("grp.edit", path);
    for (const part of [
      "4 problems",
      'row 2: column "grp_external_id" holds the spreadsheet error #N/A, not a value',
      'row 3: column "grp_external_id" holds the spreadsheet error #REF!',
      'row 4: grp_external_id is text, but column "grp_external_id" holds the number 123 formatted "00000"',
      "row 5: grp_external_id is text, but column",
      "format the column as Text",
    ]) {
      expect(message).toContain(part);
    }
    expect(message).not.toContain("row 6");
  });
});
