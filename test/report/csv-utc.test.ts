/**
 * A CSV report writes a TIMESTAMPTZ in UTC whatever the machine's time zone, as its workbook, HTML
 * and JSON do: the same report run on a server in New York and a laptop in Paris gives the same
 * bytes. The query itself still runs in the machine's zone (its `current_setting('TimeZone')`).
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/spawn-cli.js";

let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "lms-csv-utc-"));
  (await createLmsDatabase({ path: join(cwd, "lms.duckdb") })).close();
  await writeFile(
    join(cwd, "instants.sql"),
    [
      "-- title: Instants",
      "SELECT TIMESTAMPTZ '2026-11-27 08:00:00.5+00' AS at, 'infinity'::TIMESTAMPTZ AS never,",
      "  NULL::TIMESTAMPTZ AS unknown, current_setting('TimeZone') AS zone, '=1' AS formula,",
      // A union is written as its member's text: neutralised as text, with or without an instant.
      "  union_value(s := '=1+2')::UNION(t TIMESTAMPTZ, s VARCHAR) AS u,",
      "  union_value(s := '@x')::UNION(n INTEGER, s VARCHAR) AS v",
      "",
    ].join("\n"),
  );
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

async function csvIn(zone: string): Promise<string> {
  const out = `out-${zone.replace("/", "-")}`;
  const run = await runCli(["report", "instants.sql", "--format", "csv", "--out", out], {
    cwd,
    env: { TZ: zone, LMS_DB: join(cwd, "lms.duckdb") },
  });
  expect(run.code, run.stderr).toBe(0);
  const today = new Date().toISOString().slice(0, 10);
  return join(cwd, out, `instants-${today}.csv`);
}

describe("CSV instants", () => {
  it("are written in UTC under any time zone, and read back as the same instant", async () => {
    const newYork = await csvIn("America/New_York");
    const paris = await csvIn("Europe/Paris");
    const text = (await readFile(newYork, "utf8")).split("\r\n");
    expect(text[0]).toBe("at,never,unknown,zone,formula,u,v");
    expect(text[1]).toBe("2026-11-27 08:00:00.5+00,infinity,,America/New_York,'=1,'=1+2,'@x");
    expect((await readFile(paris, "utf8")).split("\r\n")[1]).toBe(
      "2026-11-27 08:00:00.5+00,infinity,,Europe/Paris,'=1,'=1+2,'@x",
    );

    const reader = await (await DuckDBInstance.create(":memory:")).connect();
    const read = await reader.runAndReadAll(
      `SELECT epoch_ms("at") AS ms, isinf("never") AS never FROM read_csv('${newYork}', types = {'at': 'TIMESTAMPTZ', 'never': 'TIMESTAMPTZ'})`,
    );
    expect(read.getRowObjects()).toEqual([
      { ms: BigInt(Date.UTC(2026, 10, 27, 8, 0, 0, 500)), never: true },
    ]);
    reader.closeSync();
  });
});
