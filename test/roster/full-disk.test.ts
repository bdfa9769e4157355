/**
 * A roster import onto a full disk: DuckDB cannot append the new roster to the database's .wal,
 * and said so in its own words with no advice ("TransactionContext Error: Failed to commit: Could
 * not write file ...lms.duckdb.wal: No space left on device"). Now one line names the database,
 * the full disk and what to do, exit 1; the database file and its roster are as before, and once
 * there is room the import goes through. A real tmpfs of a chosen size (mounting needs root, CI
 * runs as root; elsewhere the test is skipped), the CLI in this process.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fillUp, useSmallDisk } from "../helpers/small-disk.js";
import { cli, users } from "./roster-cli.js";

const small = useSmallDisk("lms-roster-full-", 4 << 20);

/** A roster of `count` people whose first names start with `name`. */
async function roster(path: string, name: string, count = 300): Promise<string> {
  const rows = Array.from({ length: count }, (_, i) => `${i + 1},${name}${i + 1},p${i + 1}@x.io`);
  await writeFile(path, `user_id,firstname,email\n${rows.join("\n")}\n`);
  return path;
}

describe("roster import on a full disk", () => {
  it("names the database and the full disk, leaves the roster as it was, and imports once there is room", async (context) => {
    if (!small.mounted) context.skip("mounting a tmpfs needs root");
    const db = join(small.disk, "lms.duckdb");
    const first = await roster(join(small.dir, "first.csv"), "Ann");
    const made = await cli(["roster", "import", first, "--db", db], small.dir);
    expect(made.code, made.stderr).toBe(0);
    const bytes = await readFile(db);
    const before = await users(db);

    const second = await roster(join(small.dir, "second.csv"), "Bea");
    const filler = join(small.disk, "filler");
    await fillUp(filler);
    const full = await cli(["roster", "import", second, "--db", db], small.dir);
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(
      /^lms-export: roster import failed: the database disk\/lms\.duckdb could not be written: no space left on \S+disk \(.+ free\); free space there and import again; the previous roster is unchanged\n$/,
    );
    expect((await readFile(db)).equals(bytes)).toBe(true);
    expect(await users(db)).toEqual(before);

    await rm(filler);
    const again = await cli(["roster", "import", second, "--db", db], small.dir);
    expect(again.code, again.stderr).toBe(0);
    expect((await users(db)).rows[0]?.firstname).toBe("Bea1");
  });
});
