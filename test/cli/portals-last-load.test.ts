/**
 * When the data of a report over several portals was loaded: each portal's oldest last load of
 * the tables the report reads (north's run 4 has no per-table figures, so it loaded every table),
 * in the HTML page and on the workbook's About sheet, so a portal whose extracts have
 * been failing shows its old day. `report --all-portals` showed the newest run of any portal (the
 * highest run id of them all, though each portal numbers its own), hiding a stale portal behind a
 * fresh one; `report --lake` said "no successful extract recorded" of a lake holding `_runs`.
 * A portal whose tables were last loaded by different runs gives each run's tables, as one portal
 * does (load-per-table.test.ts): south showed its oldest load alone, "south 2026-01-30 06:10 UTC",
 * in the page, the About sheet and the mail body, hiding that run 2 loaded most of its tables.
 * The built CLI as a child process; the files read back with ExcelJS and as text, the mail taken
 * by a real SMTP server.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, test } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { builtCli } from "../helpers/built-cli.js";
import { collect } from "../helpers/child-output.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { startSmtp } from "../mail/smtp-fixture.js";

const dir = tempDirForFile("lms-portals-loaded-");
// South's svc_availability and availability_group were last loaded by its run 1 (its run 2 has no
// figures for them): its data is as old as those tables' load, the others are run 2's.
const SOUTH_RUN_1 = "svc_availability, availability_group";
const LOADED = `Data loaded: north 2026-03-10 05:00 UTC, south (others 2026-02-06 06:05 UTC, ${SOUTH_RUN_1} 2026-01-30 06:10 UTC)`;

/** Runs the built CLI in the test's folder; fails the test with what it printed if it fails. */
async function cli(args: readonly string[]): Promise<void> {
  const run = await collect(builtCli(args, dir, { LMS_QUIET: "1" }));
  expect(run.code, run.stderr).toBe(0);
}

async function written(folder: string, extension: string): Promise<string> {
  const files = await readdir(join(dir, folder));
  return join(dir, folder, files.find((f) => f.endsWith(extension)) ?? "");
}

beforeAll(async () => {
  // Both have runs 1 and 2 (2026-03-08 06:05); north has run 4 since, south's are a month older.
  const north = await createLmsDatabase({ path: join(dir, "lms-north.duckdb") });
  const connection = await north.connect();
  await connection.run(`INSERT INTO _runs (run_id, started_at, finished_at, status, mode)
    VALUES (4, TIMESTAMP '2026-03-10 04:50:00', TIMESTAMP '2026-03-10 05:00:00', 'succeeded', 'incremental')`);
  north.close();
  const south = await createLmsDatabase({ path: join(dir, "lms-south.duckdb") });
  await (await south.connect()).run(
    "UPDATE _runs SET started_at = started_at - INTERVAL 30 DAY, finished_at = finished_at - INTERVAL 30 DAY",
  );
  south.close();
  const portals = { north: {}, south: {} };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
});

describe("when the data of a report over several portals was loaded", () => {
  test("report --all-portals: each portal's last load, in the page and on the About sheet", async () => {
    await cli(["report", "freshness", "--all-portals", "--format", "html,xlsx", "--out", "all"]);
    expect(await readFile(await written("all", ".html"), "utf8")).toContain(LOADED);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await written("all", ".xlsx"));
    const about = new Map<string, unknown>();
    book.getWorksheet("About")?.eachRow((row) => {
      about.set(String(row.getCell(1).value), row.getCell(2).value);
    });
    expect(about.get("Data loaded at (UTC), portal north")).toEqual(
      new Date("2026-03-10T05:00:00Z"),
    );
    expect(about.get("Data loaded at (UTC), portal south")).toEqual(
      new Date("2026-01-30T06:10:00Z"),
    );
    expect(about.get("Extract run id, portal north")).toBe(4);
    expect(about.get("Extract run id, portal south")).toBe(1);
    // North's tables were all loaded by its run 4: no breakdown. South's, run by run.
    expect([...about.keys()].filter((label) => label.includes("portal north"))).toEqual([
      "Data loaded at (UTC), portal north",
      "Extract run id, portal north",
    ]);
    const south = `portal south, ${SOUTH_RUN_1}`;
    expect(about.get(`Data loaded at (UTC), ${south}`)).toEqual(new Date("2026-01-30T06:10:00Z"));
    expect(about.get(`Extract run id, ${south}`)).toBe(1);
    const others = [...about.entries()].filter(
      ([label]) =>
        label.startsWith("Extract run id, portal south, ") && !label.endsWith(SOUTH_RUN_1),
    );
    expect(others).toEqual([[expect.stringContaining(", take"), 2]]);
  });

  test("report --all-portals: a report reading some tables gives their loads only", async () => {
    // compliance reads neither of the tables south's run 1 loaded last. Its queries, bound over
    // several portals, read the stacked results: the load was worked out from those, which name
    // no table, as if the report read every table, and south's run 1 showed.
    await cli(["report", "compliance", "--all-portals", "--format", "html", "--out", "some"]);
    const page = await readFile(await written("some", ".html"), "utf8");
    expect(page).toContain("Data loaded: north 2026-03-10 05:00 UTC, south 2026-02-06 06:05 UTC ·");
  });

  test("report --all-portals --mail-to: the mail body gives each portal's the same way", async () => {
    const smtp = await startSmtp();
    try {
      const run = await collect(
        builtCli(
          [
            "report",
            "freshness",
            "--all-portals",
            "--out",
            "mailed",
            "--mail-to",
            "ops@example.com",
          ],
          dir,
          {
            LMS_QUIET: "1",
            LMS_SMTP_URL: smtp.url,
            LMS_MAIL_FROM: "reports@example.com",
          },
        ),
      );
      expect(run.code, run.stderr).toBe(0);
    } finally {
      await smtp.close();
    }
    const [message] = smtp.received;
    expect(message?.parsed.text).toContain(LOADED);
    expect(message?.parsed.html).toContain(LOADED);
  });

  test("report --lake: each portal's last load from the lake's _runs", async () => {
    await cli(["publish", "--lake", "lake", "--all-portals", "--snapshot-date", "2026-03-10"]);
    await cli(["report", "freshness", "--lake", "lake", "--format", "html", "--out", "lake-out"]);
    expect(await readFile(await written("lake-out", ".html"), "utf8")).toContain(LOADED);
  });
});
