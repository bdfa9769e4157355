/**
 * The portal's own field names (`user_firstname`, `user_email`) are the columns they name, and a
 * roster without a name or an e-mail column is imported with a warning saying which headers were
 * looked for (src/roster/person-columns.ts).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { USER_BASE_COLUMNS } from "../../src/load/user-table.js";
import { cli, users, withTempDir } from "./roster-cli.js";

async function importFile(dir: string, text: string, extra: string[] = []) {
  await writeFile(join(dir, "people.csv"), text);
  const run = await cli(
    ["roster", "import", "people.csv", "--db", "lms.duckdb", "--log-format", "human", ...extra],
    dir,
  );
  expect(run.code, run.stderr).toBe(0);
  return run;
}

describe("the roster's name and e-mail columns", () => {
  test("user_firstname, user_lastname and user_email are the person's name and address", async () => {
    await withTempDir(async (dir) => {
      const run = await importFile(
        dir,
        "user_id,user_firstname,user_lastname,User Email\n1,Ana,Lee,ana@x.org\n",
      );
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain(
        "columns: user_id, firstname, lastname, email; extra columns: none",
      );
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.columns).toEqual([...USER_BASE_COLUMNS]);
      expect(table.rows.map((r) => [r.firstname, r.lastname, r.email])).toEqual([
        ["Ana", "Lee", "ana@x.org"],
      ]);
    });
  });

  test("a roster with no name column, or no e-mail column, says so and what it looked for", async () => {
    await withTempDir(async (dir) => {
      const run = await importFile(dir, "user_id,Full Name,Work Mail\n1,Ana Lee,ana@x.org\n");
      const lines = run.stderr.trim().split("\n");
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(
        "people.csv has no name column (no header meaning firstname or lastname; looked for firstname, givenname, first, forename, prenom, userfirstname, lastname, surname,",
      );
      expect(lines[1]).toContain(
        "people.csv has no e-mail column (no header meaning email; looked for email, emailaddress, employeeemail, mail, useremail, workemail, workemailaddress, primaryworkemail, businessemail, case, spaces and punctuation aside)",
      );
      // A name column alone leaves the e-mail warning.
      const named = await importFile(dir, "user_id,Surname\n1,Lee\n");
      expect(named.stderr).not.toContain("no name column");
      expect(named.stderr).toContain("no e-mail column");
    });
  });

  test("a --merge without those columns says nothing while the roster has names and addresses", async () => {
    await withTempDir(async (dir) => {
      await importFile(dir, "user_id,firstname,email\n1,Ana,ana@x.org\n");
      const merged = await importFile(dir, "user_id,department\n1,Sales\n2,Ops\n", ["--merge"]);
      expect(merged.stderr).toBe("");
      // Into a database without a roster, the merged file is all the roster there is.
      const run = await cli(
        [
          "roster",
          "import",
          "people.csv",
          "--db",
          "new.duckdb",
          "--merge",
          "--log-format",
          "human",
        ],
        dir,
      );
      expect(run.stderr).toContain("no name column");
      expect(run.stderr).toContain("no e-mail column");
    });
  });
});
