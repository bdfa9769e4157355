/**
 * Several portals from one config file: `extract --all-portals` against real simulated portals
 * over HTTP (one of them refusing the key), then `publish --lake --all-portals` and
 * `report --all-portals`, in-process through main().
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openDatabase } from "../../src/load/database.js";
import { readManifest } from "../../src/publish/lake/manifest.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { reportCsvLines, runCli } from "../helpers/in-process-cli.js";

let dir: string;
/** The config file's portals: `refused` has a key its portal does not take. */
let PORTALS: Record<"north" | "south" | "refused", Record<string, unknown>>;
const sims: RunningSimulator[] = [];

const cli = (args: string[]) => runCli(dir, args);

async function count(db: string, table: string): Promise<number> {
  const handle = await openDatabase(join(dir, db), { readOnly: true });
  try {
    const connection = await handle.connect();
    return Number(
      (await connection.runAndReadAll(`SELECT count(*) FROM ${table}`)).getRowsJS()[0]![0],
    );
  } finally {
    handle.close();
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-portals-"));
  for (const [seed, apiKey] of [
    [1, "demo-key"],
    [2, "demo-key"],
    [3, "another-key"],
  ] as const) {
    sims.push(await startSimulator({ users: 40, takesPerUser: 3, seed, apiKey }));
  }
  await writeFile(join(dir, "key"), "demo-key\n", { mode: 0o600 });
  PORTALS = {
    north: { baseUrl: sims[0]!.baseUrl, apiKeyFile: "key", concurrency: 4 },
    south: { baseUrl: sims[1]!.baseUrl, apiKeyFile: "key", db: "data/south.duckdb" },
    refused: { baseUrl: sims[2]!.baseUrl, apiKeyFile: "key" },
  };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals: PORTALS }));
  await import("node:fs/promises").then((fs) => fs.mkdir(join(dir, "data")));
});

afterAll(async () => {
  await Promise.all(sims.map((sim) => sim.close()));
  await rm(dir, { recursive: true, force: true });
});

describe("portals of one config file", () => {
  test("extract --all-portals isolates a failing portal; publish and report span the others", async () => {
    const extract = await cli(["extract", "--all-portals", "--portals-at-once", "2"]);
    expect(extract.code).toBe(1);
    expect(extract.stdout).toContain("portal north: done");
    expect(extract.stdout).toContain("portal south: done");
    expect(extract.stdout).toMatch(/portal refused: failed: .*refused the API key/);
    expect(extract.stderr).toContain("1 of 3 portals failed: refused");
    const northTakes = await count("lms-north.duckdb", "take");
    const southTakes = await count("data/south.duckdb", "take");
    expect(northTakes).toBeGreaterThan(0);
    expect(southTakes).toBeGreaterThan(0);

    const one = await cli(["extract", "--portal", "north", "--incremental"]);
    expect(one.code).toBe(0);
    expect(await count("lms-north.duckdb", "_runs")).toBe(2);

    // The refused portal left no database behind: reporting every portal says so, and reports
    // the others without it (test/cli/portals-missing-database.test.ts has the cases).
    expect(existsSync(join(dir, "lms-refused.duckdb"))).toBe(false);
    const refused = await cli(["report", "freshness", "--all-portals", "--format", "csv"]);
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stderr).toMatch(
      /portal refused: no database at .*its rows are missing from the reports; run \\"lms-export extract --portal refused\\"/,
    );
    await writeFile(
      join(dir, "lms-export.config.json"),
      JSON.stringify({ portals: { north: PORTALS.north, south: PORTALS.south } }),
    );
    const publish = await cli(["publish", "--lake", "lake", "--all-portals"]);
    expect(publish.stderr).toBe("");
    expect(publish.code).toBe(0);
    const manifest = await readManifest(join(dir, "lake"));
    const takes = (portal: string) =>
      manifest.partitions.find((p) => p.table === "take" && p.portal === portal)?.rows;
    expect(takes("north")).toBe(northTakes);
    expect(takes("south")).toBe(southTakes);

    const report = await cli(["report", "freshness", "--all-portals", "--format", "csv"]);
    expect(report.stderr).toBe("");
    expect(report.code).toBe(0);
    const file = report.stdout
      .split("\n")
      .find((l) => l.trim().endsWith(".csv"))!
      .trim();
    // Each portal's own rows, with a first portal column: its takes are not added to another's.
    const lines = (await readFile(join(dir, file), "utf8")).split("\n");
    expect(lines[0]?.startsWith("portal,resource,table_rows,")).toBe(true);
    const takeRows = (portal: string) =>
      lines.find((l) => l.startsWith(`${portal},take,`))?.split(",")[2];
    expect(takeRows("north")).toBe(String(northTakes));
    expect(takeRows("south")).toBe(String(southTakes));
  });

  test("a report over several portals is each portal's own report, stacked", async () => {
    // The simulated portals number their people and products alike: joined across portals by
    // id, one portal's takes would be paired with another's people.
    const csv = (args: string[]) => reportCsvLines(dir, "compliance", args);
    const own = {
      north: await csv(["--db", "lms-north.duckdb", "--out", "own-north"]),
      south: await csv(["--db", "data/south.duckdb", "--out", "own-south"]),
    };
    expect(own.north.length).toBeGreaterThan(10);
    for (const args of [
      ["--all-portals", "--out", "all"],
      ["--lake", "lake", "--out", "lake-all"],
    ]) {
      const stacked = await csv(args);
      expect(stacked[0], args[0]).toBe(`portal,${own.north[0]}`);
      for (const [portal, lines] of Object.entries(own)) {
        const mine = stacked
          .filter((l) => l.startsWith(`${portal},`))
          .map((l) => l.slice(portal.length + 1));
        expect(mine, `${args[0]} ${portal}`).toEqual(lines.slice(1));
      }
      expect(stacked.length).toBe(own.north.length + own.south.length - 1);
    }
    // The HTML report's headline figures are each portal's, named with it.
    const html = await cli(["report", "weekly-compliance", "--all-portals", "--format", "html"]);
    expect(html.code, html.stderr).toBe(0);
    const page = html.stdout
      .split("\n")
      .find((l) => l.trim().endsWith(".html"))!
      .trim();
    const text = await readFile(join(dir, page), "utf8");
    for (const portal of ["north", "south"]) {
      expect(text, portal).toContain(`${portal} · Completion rate`);
    }
  });

  test("unknown portals and conflicting options are exit 2", async () => {
    const cases: [string[], string][] = [
      [["extract", "--portal", "west"], '--portal west is not under "portals"'],
      [["extract", "--all-portals", "--db", "x.duckdb"], "leave out --db"],
      [["extract", "--all-portals", "--portals-at-once", "0"], "--portals-at-once"],
      [["publish", "--all-portals", "--postgres", "postgres://u@h/d"], "to --lake only"],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(existsSync(join(dir, "lms-west.duckdb"))).toBe(false);
  });
});
