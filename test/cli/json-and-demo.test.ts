/**
 * `sql --format json` writes instants as ISO 8601 with Z, and NaN and infinities as DuckDB's CSV
 * spells them (they had been `NaN` and `Infinity`); the demo, a real child process, says why
 * the simulated portal answers "not found" for a product, and writes its charted reports as HTML.
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/spawn-cli.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-json-demo-"));
  (await createLmsDatabase({ path: join(dir, "lms.duckdb") })).close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("instants and the demo's not found", () => {
  it("writes TIMESTAMP and TIMESTAMPTZ as ISO 8601 with Z in JSON", async () => {
    const sql =
      "SELECT TIMESTAMP '2026-03-05 10:22:13.123456' AS a, TIMESTAMPTZ '2026-03-05 10:22:13+02' AS b, NULL::TIMESTAMP AS c";
    const run = await runCli(["sql", sql, "--format", "json", "--db", join(dir, "lms.duckdb")]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      { a: "2026-03-05T10:22:13.123456Z", b: "2026-03-05T08:22:13.000Z", c: null },
    ]);
  });

  it("writes a NaN or infinite double as the word the CSV has", async () => {
    const sql =
      "SELECT 'nan'::DOUBLE AS a, 'inf'::DOUBLE AS b, '-inf'::FLOAT AS c, 1.5::DOUBLE AS d";
    const run = await runCli(["sql", sql, "--format", "json", "--db", join(dir, "lms.duckdb")]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ a: "nan", b: "inf", c: "-inf", d: 1.5 }]);
  });

  it("explains the product the simulated portal deleted on purpose", async () => {
    const run = await runCli(
      ["demo", "--users", "40", "--db", join(dir, "demo.duckdb"), "--out", join(dir, "out")],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /1 not found \(see _not_found\)\n {2}\(not found: the simulated portal deletes a product on purpose/,
    );
  });

  it("writes the charted reports as HTML too, and says which page to open", async () => {
    const out = join(dir, "out-pages");
    const run = await runCli(
      ["demo", "--users", "40", "--db", join(dir, "pages.duckdb"), "--out", out],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(0);
    const opened = /^Open (\S+) in a browser: the weekly report, with its charts\.$/m.exec(
      run.stdout,
    );
    expect(opened?.[1]).toMatch(/^out-pages\/weekly-compliance-\d{4}-\d{2}-\d{2}\.html$/);
    const pages = (await readdir(out)).filter((name) => name.endsWith(".html")).sort();
    expect(pages.map((name) => name.replace(/-\d{4}-\d{2}-\d{2}/, ""))).toEqual([
      "completion-overview.html",
      "weekly-compliance.html",
    ]);
    const { document } = parseHTML(await readFile(join(dir, opened?.[1] ?? ""), "utf8"));
    // Both charts the definition declares, drawn with marks.
    const charts = [...document.querySelectorAll("svg")].filter(
      (svg) => svg.querySelectorAll("path, rect, circle").length > 0,
    );
    expect(charts.length).toBeGreaterThanOrEqual(2);
    expect(document.querySelector("script")).toBeNull();
  });
});
