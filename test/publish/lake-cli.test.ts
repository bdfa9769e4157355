/**
 * `publish --lake` and `report --lake` through main(): exit codes, messages, and the shipped
 * queries run over the latest snapshot of every portal.
 */
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";
import { FIXTURE_ROWS, filledDatabase } from "./helpers/filled-db.js";

const cli = (cwd: string, args: string[]) => runCli(cwd, args);

describe("publish --lake and report --lake from the command line", () => {
  test("the shipped freshness query counts each portal's latest snapshot", async () => {
    const work = await tempDir();
    const a = await filledDatabase(work, "a");
    a.close();
    const b = await filledDatabase(work, "b", { ...FIXTURE_ROWS, take: 50 }, 1000);
    b.close();
    const publish = (db: string, portal: string, day: string) =>
      cli(work, [
        "publish",
        "--lake",
        "lake",
        "--db",
        db,
        "--portal",
        portal,
        "--snapshot-date",
        day,
      ]);
    const first = await publish("a.duckdb", "a", "2026-11-16");
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /\n {2}take\/portal=a\/snapshot_date=2026-11-16\/part-[0-9TZ]+-[0-9a-f]+\.parquet 300 rows\n/,
    );
    expect((await publish("b.duckdb", "b", "2026-11-16")).code).toBe(0);
    // Portal a's latest day is the only one of a that counts.
    expect((await publish("a.duckdb", "a", "2026-11-23")).code).toBe(0);

    const report = await cli(work, [
      "report",
      "freshness",
      "--lake",
      "lake",
      "--format",
      "csv",
      "--out",
      "out",
      "--param",
      "today=2026-11-23",
    ]);
    expect(report.stderr).toBe("");
    expect(report.code).toBe(0);
    const csvFile = report.stdout.split("\n").find((line) => line.trim().endsWith(".csv"));
    const csv = await readFile(join(work, csvFile!.trim()), "utf8");
    // One row per portal and table, under a first portal column: each portal's own latest day.
    const takes = csv.split("\n").filter((line) => line.split(",")[1] === "take");
    expect(takes.map((line) => line.split(",").slice(0, 3).join(","))).toEqual([
      `a,take,${FIXTURE_ROWS.take}`,
      "b,take,50",
    ]);
  });

  test("a leading ~/ in --lake is the home folder, for publish and report", async () => {
    const work = await tempDir();
    const home = await tempDir();
    (await filledDatabase(work, "a")).close();
    const env = { HOME: home };
    const published = await runCli(work, ["publish", "--lake", "~/lake", "--db", "a.duckdb"], env);
    expect(published.code, published.stderr).toBe(0);
    expect(await readdir(join(home, "lake"))).toContain("_lake.json");
    const args = ["report", "freshness", "--lake", "~/lake", "--format", "csv", "--out", "out"];
    const report = await runCli(work, args, env);
    expect(report.code, report.stderr).toBe(0);
    expect(await readdir(work)).not.toContain("~");
  });

  test("every shipped report gives the same rows over a one-portal lake as over its database", async () => {
    const work = await tempDir();
    const db = await filledDatabase(work, "one");
    db.close();
    expect((await cli(work, ["publish", "--lake", "lake", "--db", "one.duckdb"])).code).toBe(0);
    const reports = [
      "completion-overview",
      "data-freshness",
      "score-analysis",
      "team-compliance",
      "weekly-compliance",
    ];
    const counts = async (source: string[]) => {
      const result = await cli(work, ["report", ...reports, ...source, "--format", "parquet"]);
      expect(result.code, result.stderr).toBe(0);
      // The fixture's roster names a few of its people: that warning is expected, nothing else.
      const other = result.stderr
        .split("\n")
        .filter((l) => l !== "" && !l.includes("not in the roster"));
      expect(other).toEqual([]);
      return result.stdout.split("\n").filter((line) => line.startsWith("report "));
    };
    const fromDb = await counts(["--db", "one.duckdb", "--out", "from-db"]);
    expect(fromDb).toHaveLength(reports.length);
    expect(await counts(["--lake", "lake", "--out", "from-lake"])).toEqual(fromDb);
  });

  test("bad input is one line and exit code 2", async () => {
    const work = await tempDir();
    const db = await filledDatabase(work, "x");
    db.close();
    await mkdir(join(work, "not-a-lake"));
    // A lake whose files were all deleted by hand: its manifest names none that are there.
    expect((await cli(work, ["publish", "--lake", "emptied", "--db", "x.duckdb"])).code).toBe(0);
    for (const entry of await readdir(join(work, "emptied"))) {
      if (entry !== "_lake.json") await rm(join(work, "emptied", entry), { recursive: true });
    }
    const cases: [string[], string][] = [
      [["publish", "--db", "x.duckdb"], "name a target: --lake DIR"],
      [["publish", "--db", "x.duckdb", "--lake", "l", "--portal", "../up"], "is not a portal name"],
      [
        ["publish", "--db", "x.duckdb", "--lake", "l", "--snapshot-date", "2026-02-30"],
        "is not a day of the calendar",
      ],
      // An unset variable: read as today, it would replace today's snapshot.
      [
        ["publish", "--db", "x.duckdb", "--lake", "l", "--snapshot-date", ""],
        '--snapshot-date needs a day as YYYY-MM-DD, got "" (is the variable that should give it set?)',
      ],
      // A typo of the year: as the newest day it would drop real ones with --keep.
      [
        ["publish", "--db", "x.duckdb", "--lake", "l", "--snapshot-date", "2099-01-01"],
        "--snapshot-date 2099-01-01 is a day still to come",
      ],
      [
        ["report", "completion", "--lake", "empty"],
        `the lake folder ${join(work, "empty")} does not exist; make one with "lms-export publish --lake ${join(work, "empty")}"`,
      ],
      // Advice to paste is one shell word per path, a space and all.
      [
        ["report", "completion", "--lake", "no lake"],
        `make one with "lms-export publish --lake '${join(work, "no lake")}'"`,
      ],
      [
        ["report", "completion", "--lake", "x.duckdb"],
        `${join(work, "x.duckdb")} is a file, not a lake folder`,
      ],
      [
        ["report", "completion", "--lake", "not-a-lake"],
        `${join(work, "not-a-lake")} is not a lake: it has no _lake.json; make one with`,
      ],
      [["report", "completion", "--lake", "emptied"], "emptied/_lake.json lists no partitions"],
      [
        ["publish", "--db", "x.duckdb", "--lake", "l", "--schema", "bi"],
        "--schema is for --postgres",
      ],
      [
        [
          "publish",
          "--db",
          "x.duckdb",
          "--postgres",
          "postgres://u@127.0.0.1:9/d",
          "--snapshot-date",
          "2026-02-02",
        ],
        "--snapshot-date is for --lake",
      ],
      [
        ["publish", "--db", "x.duckdb", "--lake", "l", "--postgres-timeout", "5"],
        "--postgres-timeout is for --postgres",
      ],
      [
        ["publish", "--db", "x.duckdb", "--postgres", "postgres://u@127.0.0.1:9/d", "--keep", "4"],
        "--keep is for --lake DIR",
      ],
      [
        ["publish", "--db", "x.duckdb", "--lake", "l", "--keep", "0"],
        "--keep must be a whole number",
      ],
      [
        ["publish", "--db", "x.duckdb", "--postgres", "postgres://u@127.0.0.1:9/d"].concat([
          "--postgres-timeout",
          "-1",
        ]),
        "--postgres-timeout must be a whole number of seconds",
      ],
      [
        ["publish", "--db", "x.duckdb", "--postgres", "postgres://u@127.0.0.1:9/d"].concat([
          "--postgres-timeout",
          "1.5",
        ]),
        "--postgres-timeout must be a whole number of seconds",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await cli(work, args);
      expect(result.code, args.join(" ")).toBe(2);
      const lines = result.stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(message);
    }
  });
});
