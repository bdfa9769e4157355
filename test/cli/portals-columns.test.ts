/**
 * The columns of a report over several portals whose rosters have columns of their own (north a
 * `department`, south a `site`): `report --all-portals` and `report --lake` give the same header,
 * `portal` first, then the columns by name in the portals' order; each portal's own views hold
 * its own columns only, as `report --db` on its database does. Real simulated portals over HTTP,
 * real databases and lake files, the CSV files read back as text.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { reportCsvLines, runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-portals-columns-");
const sims: RunningSimulator[] = [];
const cli = (args: string[]) => runCli(dir, args);

/** The lines of the one CSV file a report of `query` wrote, after checking it succeeded. */
const csvLines = (query: string, args: string[]) => reportCsvLines(dir, query, args);

beforeAll(async () => {
  await mkdir(dir, { recursive: true });
  for (const seed of [1, 2]) {
    sims.push(await startSimulator({ users: 12, takesPerUser: 1, seed, apiKey: "k" }));
  }
  await writeFile(join(dir, "key"), "k\n", { mode: 0o600 });
  const portals = {
    north: { baseUrl: sims[0]!.baseUrl, apiKeyFile: "key" },
    south: { baseUrl: sims[1]!.baseUrl, apiKeyFile: "key" },
  };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
  await writeFile(join(dir, "north.csv"), "user_id,lastname,department\n1,Nord,Sales\n2,Nordin,\n");
  await writeFile(join(dir, "south.csv"), "user_id,lastname,site\n1,Sud,Lyon\n3,Sudre,Nice\n");
  await writeFile(join(dir, "people.sql"), 'SELECT * FROM "user" ORDER BY user_id LIMIT 2\n');
});

afterAll(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
});

describe("the columns of a report over several portals", () => {
  test("--all-portals and --lake: portal first, each portal's own columns, the same header", async () => {
    expect((await cli(["extract", "--all-portals"])).code).toBe(0);
    for (const portal of ["north", "south"]) {
      const db = `lms-${portal}.duckdb`;
      const imported = await cli(["roster", "import", `${portal}.csv`, "--db", db]);
      expect(imported.code, imported.stderr).toBe(0);
    }
    const publish = await cli(["publish", "--lake", "lake", "--all-portals"]);
    expect(publish.code, publish.stderr).toBe(0);

    const own = {
      north: await csvLines("./people.sql", ["--db", "lms-north.duckdb", "--out", "n"]),
      south: await csvLines("./people.sql", ["--db", "lms-south.duckdb", "--out", "s"]),
    };
    expect(own.north[0]).toMatch(/,department$/);
    expect(own.south[0]).toMatch(/,site$/);
    const base = own.north[0]!.replace(/,department$/, "");
    expect(own.south[0]).toBe(`${base},site`);
    const expected = [
      `portal,${base},department,site`,
      ...own.north.slice(1).map((line) => `north,${line},`),
      ...own.south.slice(1).map((line) => `south,${line.replace(/,([^,]*)$/, ",,$1")}`),
    ];
    const all = await csvLines("./people.sql", ["--all-portals", "--out", "all"]);
    expect(all).toEqual(expected);
    const lake = await csvLines("./people.sql", ["--lake", "lake", "--out", "lake-out"]);
    expect(lake).toEqual(expected);

    // Each portal's own `user` view has its own columns only (south's has no department); the
    // stacked one in `main` has them all, portal first.
    await writeFile(
      join(dir, "columns.sql"),
      `SELECT table_schema = 'main' AS stacked, string_agg(column_name, ' ' ORDER BY ordinal_position) AS names
       FROM information_schema.columns WHERE table_name = 'user' AND table_catalog = current_database()
       AND table_schema IN (current_schema(), 'main') GROUP BY ALL ORDER BY ALL\n`,
    );
    const names = base.replaceAll(",", " ");
    for (const source of [["--all-portals"], ["--lake", "lake"]]) {
      const lines = await csvLines("./columns.sql", [...source, "--out", "cols"]);
      expect(lines.slice(1), source[0]).toEqual([
        `north,false,portal ${names} department`,
        `north,true,portal ${names} department site`,
        `south,false,portal ${names} site`,
        `south,true,portal ${names} department site`,
      ]);
    }
    await writeFile(join(dir, "stacked.sql"), 'SELECT count(*) AS n FROM main."user"\n');
    expect(await csvLines("./stacked.sql", ["--lake", "lake", "--out", "st"])).toEqual([
      "portal,n",
      "north,4",
      "south,4",
    ]);
  });
});
