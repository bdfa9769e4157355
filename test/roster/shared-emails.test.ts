/**
 * An e-mail address on more than one person is imported (a shared mailbox is real) with a warning
 * naming it and the people's ids, compared as mail compares addresses; a --merge is checked with
 * the people already there.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { besidesMissingFields, cli, users, withTempDir } from "./roster-cli.js";

async function importFile(dir: string, name: string, text: string, extra: string[] = []) {
  await writeFile(join(dir, name), text);
  return cli(["roster", "import", name, "--db", "lms.duckdb", ...extra], dir);
}

describe("e-mail addresses on more than one person", () => {
  test("are imported, and named with their people's ids in one warning", async () => {
    await withTempDir(async (dir) => {
      const run = await importFile(
        dir,
        "people.csv",
        "user_id,email\n1,Ana@x.org\n2, ana@X.org \n3,bo@x.org\n4,\n5,\n",
      );
      expect(run.code, run.stderr).toBe(0);
      expect((await users(join(dir, "lms.duckdb"))).rows).toHaveLength(5);
      const lines = besidesMissingFields(run.stderr).trim().split("\n");
      // Blank addresses are no one's: only Ana's is shared.
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("1 e-mail address is on more than one person");
      expect(lines[0]).toContain("Ana@x.org (user_id 1, 2)");
    });
  });

  test("a --merge is checked with the roster it joins; a roster without any says nothing", async () => {
    await withTempDir(async (dir) => {
      const first = await importFile(dir, "first.csv", "user_id,email\n1,ana@x.org\n2,bo@x.org\n");
      expect(besidesMissingFields(first.stderr)).toBe("");
      const merged = await importFile(dir, "new.csv", "user_id,email\n9,bo@x.org\n", ["--merge"]);
      expect(merged.code, merged.stderr).toBe(0);
      expect(merged.stderr).toContain("bo@x.org (user_id 2, 9)");
    });
  });

  test("past five addresses, the first five by address are named and the rest counted", async () => {
    await withTempDir(async (dir) => {
      const pairs = ["g", "f", "e", "d", "c", "b", "a"].map(
        (name, i) => `${2 * i + 1},${name}@x.org\n${2 * i + 2},${name}@x.org\n`,
      );
      const run = await importFile(dir, "people.csv", `user_id,email\n${pairs.join("")}`);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        "7 e-mail addresses are on more than one person: a@x.org (user_id 13, 14); b@x.org (user_id 11, 12);",
      );
      expect(run.stderr).toContain("e@x.org (user_id 5, 6); and 2 more.");
      expect(run.stderr).not.toContain("f@x.org");
    });
  });

  test("white space is compared as mail compares it, and one address names five ids at most", async () => {
    await withTempDir(async (dir) => {
      // A non-breaking space pasted from a web page, a tab: the mail split trims both.
      const shop = Array.from({ length: 8 }, (_, i) => `${20 + i},shop@x.org\n`).join("");
      const text = `user_id,email\n1,ana@x.org\u00a0\n2,\tANA@x.org\n${shop}`;
      const run = await importFile(dir, "people.csv", text);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("2 e-mail addresses are on more than one person: ");
      expect(run.stderr).toMatch(/(ana|ANA)@x\.org \(user_id 1, 2\)/);
      expect(run.stderr).toContain("shop@x.org (user_id 20, 21, 22, 23, 24 and 3 more)");
    });
  });

  test("an address in NFD and in NFC, or with İ, is one address, as the mail split keys it", async () => {
    await withTempDir(async (dir) => {
      const text =
        "user_id,email\n1,J\u0075\u0308rgen@x.org\n2,j\u00fcrgen@x.org\n3,\u0130lker@x.org\n4,i\u0307lker@x.org\n";
      const run = await importFile(dir, "people.csv", text);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain("2 e-mail addresses are on more than one person: ");
      expect(run.stderr).toContain("(user_id 1, 2)");
      expect(run.stderr).toContain("(user_id 3, 4)");
    });
  });
});
