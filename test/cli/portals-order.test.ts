/**
 * The order of the portals in a report over several of them: `report --all-portals` and
 * `report --lake` stack them in the byte order of their names (`North`, `b`, `north`), whatever
 * order the config file lists them in and whatever a locale's collation says (`north` before
 * `North`). Real DuckDB files, a real lake, the CSV files read back as text.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { filledDatabase } from "../publish/helpers/filled-db.js";

/** The portal column of the CSV a report of `query` wrote. */
async function portalsOf(dir: string, query: string, args: string[]): Promise<string[]> {
  const result = await runCli(dir, ["report", query, "--format", "csv", ...args]);
  expect(result.code, result.stderr).toBe(0);
  const path = result.stdout
    .split("\n")
    .find((l) => l.trim().endsWith(".csv"))!
    .trim();
  const lines = (await readFile(join(dir, path), "utf8")).trimEnd().split(/\r?\n/);
  expect(lines[0]).toMatch(/^portal,/);
  return lines.slice(1).map((line) => line.split(",")[0]!);
}

describe("the order of the portals in a report over several", () => {
  test("is the byte order of their names, from --all-portals and from --lake", async () => {
    const dir = await tempDir();
    const names = ["north", "North", "b"];
    const portals: Record<string, Record<string, string>> = {};
    for (const name of names) {
      (await filledDatabase(dir, `db-${name}`)).close();
      // The address is never asked: reports and publish read the database only.
      portals[name] = {
        baseUrl: "http://127.0.0.1:9/api-v2",
        apiKeyFile: "key",
        db: `db-${name}.duckdb`,
      };
    }
    await writeFile(join(dir, "key"), "k\n", { mode: 0o600 });
    await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
    await writeFile(join(dir, "one.sql"), "SELECT count(*) AS n FROM grp\n");
    const publish = await runCli(dir, ["publish", "--lake", "lake", "--all-portals"]);
    expect(publish.code, publish.stderr).toBe(0);

    const expected = ["North", "b", "north"];
    expect(await portalsOf(dir, "./one.sql", ["--all-portals", "--out", "all"])).toEqual(expected);
    expect(await portalsOf(dir, "./one.sql", ["--lake", "lake", "--out", "lake-out"])).toEqual(
      expected,
    );
  });
});
