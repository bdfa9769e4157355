/**
 * Replace (the file is the whole roster) against --merge (upsert by user_id), and the record of
 * each import in `_roster_imports`.
 */
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { USER_BASE_COLUMNS } from "../../src/load/user-table.js";
import { besidesMissingFields, cli, imports, query, users, withTempDir } from "./roster-cli.js";

const FIRST =
  "user_id,First Name,Department,Manager Email\n1,Ana,Sales,m1@x.org\n2,Bo,R&D,m2@x.org\n";

async function importOk(dir: string, name: string, text: string, extra: string[] = []) {
  await writeFile(join(dir, name), text);
  const run = await cli(["roster", "import", name, "--db", "lms.duckdb", ...extra], dir);
  expect(besidesMissingFields(run.stderr)).toBe("");
  expect(run.code).toBe(0);
  return run.stdout;
}

describe("replace and --merge", () => {
  test("replace: people and extra columns the new file lacks are gone", async () => {
    await withTempDir(async (dir) => {
      await importOk(dir, "first.csv", FIRST);
      const out = await importOk(
        dir,
        "second.csv",
        "id,Department,Site\n2,Finance,Lyon\n3,Ops,Oslo\n",
      );
      expect(out).toBe(
        'roster import: 2 rows from second.csv (CSV, delimiter ",") into lms.duckdb, mode replace; columns: user_id, department, site; extra columns: department, site\n',
      );
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.columns).toEqual([...USER_BASE_COLUMNS, "department", "site"]);
      expect(table.rows.map((r) => [r.user_id, r.firstname, r.department, r.site])).toEqual([
        [2n, null, "Finance", "Lyon"],
        [3n, null, "Ops", "Oslo"],
      ]);
      // The key survives the swap: a duplicate id cannot be inserted.
      const keys = await query(
        join(dir, "lms.duckdb"),
        "SELECT constraint_column_names AS c FROM duckdb_constraints() WHERE table_name = 'user' AND constraint_type = 'PRIMARY KEY'",
      );
      expect(keys).toEqual([{ c: ["user_id"] }]);
    });
  });

  test("--merge: updates and adds by user_id, keeps other people and columns the file lacks", async () => {
    await withTempDir(async (dir) => {
      await importOk(dir, "first.csv", FIRST);
      const out = await importOk(
        dir,
        "update.csv",
        "User ID,E-mail,Site\n2,bo@x.org,Lyon\n3,cy@x.org,Oslo\n",
        ["--merge"],
      );
      expect(out).toContain("mode merge; columns: user_id, email, site; extra columns: site");
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.columns.slice(-3)).toEqual(["department", "manager_email", "site"]);
      const types = await query(
        join(dir, "lms.duckdb"),
        "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'user' AND column_name IN ('user_id', 'site') ORDER BY column_index",
      );
      expect(types).toEqual([
        { column_name: "user_id", data_type: "BIGINT" },
        { column_name: "site", data_type: "VARCHAR" },
      ]);
      expect(
        table.rows.map((r) => [
          r.user_id,
          r.firstname,
          r.email,
          r.department,
          r.manager_email,
          r.site,
        ]),
      ).toEqual([
        [1n, "Ana", null, "Sales", "m1@x.org", null],
        [2n, "Bo", "bo@x.org", "R&D", "m2@x.org", "Lyon"],
        [3n, null, "cy@x.org", null, null, "Oslo"],
      ]);
    });
  });

  test("--merge: an empty cell keeps the stored value and is counted; the text null is a value", async () => {
    await withTempDir(async (dir) => {
      await importOk(dir, "first.csv", FIRST);
      // A partial update sheet: Ana's new department only, Bo's new name only, a new person.
      const out = await importOk(
        dir,
        "update.csv",
        "user_id,First Name,Department,Manager Email\n1,,Marketing,null\n2,Bob,,\n3,,Ops,\n",
        ["--merge"],
      );
      // Ana's first name, Bo's department and manager: three stored values kept; the new
      // person's empty cells had nothing stored.
      expect(out).toContain(
        "extra columns: department, manager_email; 3 empty cells kept the stored value\n",
      );
      const table = await users(join(dir, "lms.duckdb"));
      expect(
        table.rows.map((r) => [r.user_id, r.firstname, r.department, r.manager_email]),
      ).toEqual([
        [1n, "Ana", "Marketing", "null"],
        [2n, "Bob", "R&D", "m2@x.org"],
        [3n, null, "Ops", null],
      ]);
      // Replace is unchanged: the file is the whole roster, an empty cell is empty.
      await importOk(dir, "again.csv", "user_id,First Name\n1,\n");
      expect((await users(join(dir, "lms.duckdb"))).rows.map((r) => r.firstname)).toEqual([null]);
    });
  });

  test("--merge: a cell of only spaces, a tab, a no-break or zero-width space keeps the stored value too", async () => {
    await withTempDir(async (dir) => {
      await importOk(dir, "first.csv", FIRST);
      const out = await importOk(
        dir,
        "spaces.csv",
        'user_id,First Name,Department\n1, ,"   "\n2,\u00a0,\t\n3,  ,Ops\n',
        ["--merge"],
      );
      expect(out).toContain("; 4 empty cells kept the stored value\n");
      await writeFile(
        join(dir, "spaces.jsonl"),
        '{"user_id":1,"firstname":"   ","department":"\\t"}\n{"user_id":2,"firstname":"\\u200b\\u2060"}\n',
      );
      const run = await cli(
        ["roster", "import", "spaces.jsonl", "--db", "lms.duckdb", "--merge"],
        dir,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("; 4 empty cells kept the stored value\n");
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.rows.map((r) => [r.user_id, r.firstname, r.department])).toEqual([
        [1n, "Ana", "Sales"],
        [2n, "Bo", "R&D"],
        // A new person's blank cell has nothing to keep: it is empty.
        [3n, null, "Ops"],
      ]);
    });
  });

  test("the import's line says which header was renamed to what", async () => {
    await withTempDir(async (dir) => {
      const out = await importOk(dir, "portal.csv", "user_id,portal,Portal_2\n1,a,b\n");
      expect(out).toContain(
        'columns: user_id, portal_3, portal_2; extra columns: portal_3, portal_2; renamed: "portal" → portal_3\n',
      );
    });
  });

  test("a renamed header goes into the column its first import gave it, in either order", async () => {
    await withTempDir(async (dir) => {
      const both = "user_id,Portal,portal_2\n1,EU-site,code-A\n2,US-site,code-B\n";
      await importOk(dir, "both.csv", both);
      // Alone, "Portal" could take portal_2; it goes where the first import put it.
      const out = await importOk(dir, "site.csv", "user_id,Portal\n1,APAC-site\n", ["--merge"]);
      expect(out).toContain('renamed: "Portal" → portal_3\n');
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.rows.map((r) => [r.user_id, r.portal_2, r.portal_3])).toEqual([
        [1n, "code-A", "APAC-site"],
        [2n, "code-B", "US-site"],
      ]);
      // A replace keeps the record: the header names the same column there too.
      await importOk(dir, "site.csv", "user_id,Portal\n1,APAC-site\n");
      expect((await users(join(dir, "lms.duckdb"))).columns.slice(-1)).toEqual(["portal_3"]);
      // A new rename skips every recorded column: a code column imported alone is not a site's.
      await importOk(dir, "code.csv", "user_id,snapshot_date_2\n1,x\n");
      const day = await importOk(dir, "day.csv", "user_id,Snapshot Date\n1,y\n", ["--merge"]);
      expect(day).toContain('renamed: "Snapshot Date" → snapshot_date_3');
      // The other order: "portal_2" names the column "Portal" went into; refused, unchanged.
      const other = ["--db", "other.duckdb"];
      expect((await cli(["roster", "import", "site.csv", ...other], dir)).code).toBe(0);
      const run = await cli(["roster", "import", "both.csv", ...other, "--merge"], dir);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        'both.csv: column "Portal" was imported into portal_2 before, and column "portal_2" names',
      );
      const kept = await users(join(dir, "other.duckdb"));
      expect(kept.rows.map((r) => [r.user_id, r.portal_2])).toEqual([[1n, "APAC-site"]]);
    });
  });

  test("a header spelling an imported column otherwise fills it, not a second column beside it", async () => {
    await withTempDir(async (dir) => {
      await importOk(dir, "first.csv", FIRST);
      // Another HR sheet writes "Manager E-mail" where the first wrote "Manager Email".
      const sheet = "User ID,Manager E-mail\n2,boss@x.org\n";
      const out = await importOk(dir, "sheet.csv", sheet, ["--merge"]);
      expect(out).toContain('renamed: "Manager E-mail" → manager_email\n');
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.columns.filter((c) => c.startsWith("manager"))).toEqual(["manager_email"]);
      expect(table.rows.map((r) => [r.user_id, r.manager_email])).toEqual([
        [1n, "m1@x.org"],
        [2n, "boss@x.org"],
      ]);
      // The other way round, a sheet spelling it as the reports read it keeps its own name.
      const other = async (name: string, text: string) => {
        await writeFile(join(dir, name), text);
        const run = await cli(["roster", "import", name, "--db", "other.duckdb"], dir);
        expect(run.code, run.stderr).toBe(0);
        return run.stdout;
      };
      await other("wrong.csv", sheet);
      const right = await other("right.csv", "user_id,Manager Email\n2,m2@x.org\n");
      expect(right).toContain("columns: user_id, manager_email;");
      // A file asking for the column by its own name as well keeps its own spelling apart.
      const both = "user_id,manager_email,Manager E-mail\n1,a@x.org,b@x.org\n";
      const two = await importOk(dir, "both.csv", both, ["--merge"]);
      expect(two).toContain("extra columns: manager_email, manager_e_mail");
    });
  });

  test("an id with a zero-width space or a no-break space around it is the id the sheet shows", async () => {
    await withTempDir(async (dir) => {
      await importOk(
        dir,
        "ids.csv",
        "user_id,email\n\u200b1002,c@x.org\n1003\u00a0\u2060,d@x.org\n",
      );
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.rows.map((r) => [r.user_id, r.email])).toEqual([
        [1002n, "c@x.org"],
        [1003n, "d@x.org"],
      ]);
    });
  });

  test("--merge into an empty database, and a file of ids only", async () => {
    await withTempDir(async (dir) => {
      await importOk(dir, "ids.csv", "user_id\n5\n6\n", ["--merge"]);
      await importOk(dir, "ids.csv", "user_id\n6\n7\n", ["--merge"]);
      const table = await users(join(dir, "lms.duckdb"));
      expect(table.rows.map((r) => r.user_id)).toEqual([5n, 6n, 7n]);
    });
  });

  test("each import is recorded: file name, sha256 of its bytes, rows, mode, when", async () => {
    await withTempDir(async (dir) => {
      const start = Date.now();
      await importOk(dir, "first.csv", FIRST);
      await importOk(dir, "more.csv", "user_id\n9\n", ["--merge"]);
      const rows = await imports(join(dir, "lms.duckdb"));
      const sha = async (name: string) =>
        createHash("sha256")
          .update(await readFile(join(dir, name)))
          .digest("hex");
      expect(rows.map((r) => [r.import_id, r.file, r.sha256, r.rows, r.mode])).toEqual([
        [1n, "first.csv", await sha("first.csv"), 2n, "replace"],
        [2n, "more.csv", await sha("more.csv"), 1n, "merge"],
      ]);
      const at = new Date(`${String(rows[0]?.imported_at)}Z`).getTime();
      expect(at).toBeGreaterThanOrEqual(start - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    });
  });
});
