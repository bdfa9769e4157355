/**
 * HR systems call the status column "Employment Status", "Employee Status" or "Worker Status".
 * Read as a column of its own, the status went unread and the reports left no one out as gone.
 * Such a header is user_status where the file has no "Status" of its own, and only then; a
 * database that kept it as a column of its own before keeps doing so (its reports read it). The
 * same for the address exported as "Work Email" or "Business Email", beside no "Email" column.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { planRosterColumns } from "../../src/roster/aliases.js";
import { RosterError } from "../../src/roster/errors.js";
import { cli, users, withTempDir } from "./roster-cli.js";

const noUserId = () => new RosterError("no user_id column");
const names = (header: string[]) => planRosterColumns(header, "people.csv", noUserId).names;

async function importFile(dir: string, text: string) {
  await writeFile(join(dir, "people.csv"), text);
  const run = await cli(["roster", "import", "people.csv", "--db", "lms.duckdb"], dir);
  expect(run.code, run.stderr).toBe(0);
  return users(join(dir, "lms.duckdb"));
}

describe("an HR export's status column under another name", () => {
  test("is user_status when the file has no Status column", () => {
    expect(names(["User ID", "Employment Status"])).toEqual(["user_id", "user_status"]);
    expect(names(["User ID", "Employee status"])).toEqual(["user_id", "user_status"]);
    expect(names(["User ID", "worker_status"])).toEqual(["user_id", "user_status"]);
  });

  test("stays a column of its own beside a Status column, or beside another such header", () => {
    expect(names(["User ID", "Status", "Employment Status"])).toEqual([
      "user_id",
      "user_status",
      "employment_status",
    ]);
    expect(names(["User ID", "Employee Status", "Worker Status"])).toEqual([
      "user_id",
      "employee_status",
      "worker_status",
    ]);
  });

  test("is imported as the status, and a database that kept it apart before keeps it apart", async () => {
    await withTempDir(async (dir) => {
      const read = await importFile(dir, "User ID,Employment Status\n1,Inactive\n2,Active\n");
      expect(read.rows.map((row) => [row.user_id, row.user_status])).toEqual([
        [1n, "Inactive"],
        [2n, "Active"],
      ]);
    });
    await withTempDir(async (dir) => {
      await importFile(dir, "User ID,Status,Employment Status\n1,Active,Leave\n");
      const read = await importFile(dir, "User ID,Employment Status\n1,Leave\n");
      expect(read.columns).toContain("employment_status");
      expect(read.rows.map((row) => [row.user_status, row.employment_status])).toEqual([
        [null, "Leave"],
      ]);
    });
  });
});

describe("an HR export's e-mail column under another name", () => {
  test("is email when the file has no Email column, and stays apart beside one", () => {
    expect(names(["User ID", "Work Email"])).toEqual(["user_id", "email"]);
    expect(names(["User ID", "Work E-mail Address"])).toEqual(["user_id", "email"]);
    expect(names(["User ID", "Business Email"])).toEqual(["user_id", "email"]);
    expect(names(["User ID", "Email", "Work Email"])).toEqual(["user_id", "email", "work_email"]);
  });

  test("is imported as the address the reports and the mail split read", async () => {
    await withTempDir(async (dir) => {
      const read = await importFile(dir, "User ID,Work Email\n1,ana@x.org\n");
      expect(read.rows.map((row) => [row.user_id, row.email])).toEqual([[1n, "ana@x.org"]]);
    });
  });
});
