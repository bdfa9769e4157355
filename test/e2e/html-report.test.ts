/**
 * The HTML report from the built CLI, as a user runs it: a simulated portal in a child process,
 * `extract`, then `report completion-overview --format html`; the file is read back with an
 * HTML parser (linkedom) and checked against the database through `sql`. A chart that names a
 * column its query lacks fails with exit code 2 and writes nothing.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtCli, startBuiltSimulator } from "../helpers/built-cli.js";
import { collect } from "../helpers/spawn-cli.js";

const KEY = "e2e-html-key-81c2";
const cli = builtCli;

let dir: string;
let portal: ChildProcess;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-e2e-html-"));
  let baseUrl: string;
  ({ portal, baseUrl } = await startBuiltSimulator(dir, { users: 400, apiKey: KEY }));
  await writeFile(join(dir, "key"), `${KEY}\n`, { mode: 0o600 });
  env = {
    LMS_BASE_URL: baseUrl,
    LMS_API_KEY_FILE: join(dir, "key"),
    LMS_DB: join(dir, "lms.duckdb"),
  };
  const extract = await collect(cli(["extract"], dir, env));
  expect(extract.code, extract.stderr).toBe(0);
});

afterAll(async () => {
  portal?.kill("SIGTERM");
  await rm(dir, { recursive: true, force: true });
});

describe("report --format html, end to end", () => {
  it("writes one self-contained page with the declared charts and a table per query", async () => {
    const run = await collect(
      cli(["report", "completion-overview", "--format", "html", "--out", "html"], dir, env),
    );
    expect(run.code, run.stderr).toBe(0);
    const files = await readdir(join(dir, "html"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^completion-overview-\d{4}-\d{2}-\d{2}\.html$/);
    const text = await readFile(join(dir, "html", files[0] ?? ""), "utf8");
    expect(run.stdout).toContain(files[0]);

    const { document } = parseHTML(text);
    expect(document.querySelector("h1")?.textContent).toBe("Completion overview");
    // Settings are told in words, one to a line, each with its --param name in the title.
    const settings = document.querySelector("ul.settings");
    expect(settings?.previousElementSibling?.textContent).toBe("Settings:");
    const items = [...(settings?.querySelectorAll("li") ?? [])].map((li) => li.textContent);
    expect(items).toContain("Only these products: every product");
    expect(settings?.textContent).not.toContain("product_ids");
    expect(settings?.querySelector('span[title="product_ids"]')?.textContent).toBe(
      "Only these products",
    );
    expect(document.querySelectorAll("script")).toHaveLength(0);
    const charts = [...document.querySelectorAll("figure.chart")];
    expect(charts.map((c) => c.querySelector("h2")?.textContent)).toEqual([
      "Completion rate (any score, pass marks aside) by group and product",
      "Access records by product and status",
    ]);
    // The heatmap: a cell per (group, product) drawn, and its colour ramp.
    expect(charts[0]?.querySelectorAll("svg svg rect").length).toBeGreaterThan(20);
    expect(charts[0]?.querySelector("linearGradient")).not.toBeNull();
    expect(charts[1]?.querySelectorAll("svg svg rect").length).toBeGreaterThan(10);

    const tables = [...document.querySelectorAll("table.data")];
    expect(tables).toHaveLength(3);
    const headers = [...(tables[0]?.querySelectorAll("th") ?? [])].map((th) => th.textContent);
    expect(headers).toContain("Completion rate (any score)");
    expect(headers).toContain("Group name");
    // The product's pass mark, not the lowest score anyone reached.
    expect(headers).toContain("Pass mark");
    expect(headers).not.toContain("Min score");

    // The access table's rows are the products with access records, as the database says.
    const sql = await collect(
      cli(
        [
          "sql",
          "SELECT count(DISTINCT product_access_product_id) AS n FROM product_access",
          "--format",
          "json",
        ],
        dir,
        env,
      ),
    );
    const [products] = JSON.parse(sql.stdout) as { n: number }[];
    expect(tables[2]?.querySelectorAll("tbody tr").length).toBe(Number(products?.n));
    const rates = [...(tables[0]?.querySelectorAll("tbody tr") ?? [])].map(
      (tr) => tr.querySelectorAll("td")[8]?.textContent ?? "",
    );
    expect(rates.filter((r) => r !== "").every((r) => /^\d{1,3}\.\d%$/.test(r))).toBe(true);
  });

  it("a chart naming a column its query lacks: exit 2, one line naming file and field, nothing written", async () => {
    const catalog = join(dir, "mine");
    await mkdir(join(catalog, "reports"), { recursive: true });
    await writeFile(
      join(catalog, "reports", "broken.json"),
      JSON.stringify({
        title: "Broken",
        description: "A chart on a column that does not exist.",
        queries: ["completion"],
        formats: ["html", "csv"],
        fileName: "broken",
        charts: [{ query: "completion", type: "bar", x: "group_name", y: ["foo"] }],
      }),
    );
    const run = await collect(
      cli(["report", "broken", "--catalog", catalog, "--out", "broken-out"], dir, env),
    );
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `lms-export: ${catalog}/reports/broken.json: field charts[0].y[0]: column "foo" is not a column of query "completion"; its columns: group_id, group_name, product_id, product_title, enrolled_users, active_users, started_users, completed_users, completion_rate, avg_score, median_score, min_score, passed_users, pass_rate`,
    );
    expect(
      existsSync(join(dir, "broken-out")) ? await readdir(join(dir, "broken-out")) : [],
    ).toEqual([]);
  });
});
