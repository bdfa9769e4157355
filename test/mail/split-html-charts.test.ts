/**
 * A split report's HTML attachment holds only the charts of the queries its share holds. The
 * report's chart of overdue-by-group (a query without the split column, so left out of each
 * manager's share) was drawn in every manager's HTML file as "No rows to draw." under its
 * heading, which reads as "nobody is overdue". Written by the CLI in-process against a real SMTP
 * server on 127.0.0.1 and the mail dataset (test/mail/mail-dataset.ts); the files read back.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";
import { MANAGERS } from "./mail-dataset.js";

const ws = useMailWorkspace();

const CHART_TITLE = "Overdue by group (whole company)";

async function writeCatalog(dir: string): Promise<void> {
  await mkdir(join(dir, "reports"), { recursive: true });
  await writeFile(
    join(dir, "reports", "team-overdue.json"),
    JSON.stringify({
      title: "Team overdue",
      description: "Each manager's people, and the company's overdue by group.",
      queries: ["compliance", "overdue-by-group", "compliance-summary"],
      params: { by_manager: true },
      formats: ["html", "csv"],
      fileName: "team-overdue",
      charts: [
        {
          query: "overdue-by-group",
          type: "bar",
          x: "group_name",
          y: ["overdue"],
          title: CHART_TITLE,
        },
      ],
      mail: { to: ["compliance@example.com"], splitBy: "manager_email", attach: ["html"] },
    }),
  );
}

test("a manager's HTML file leaves out a chart of a query their share does not hold", async () => {
  const catalog = join(ws.dir, "overdue-cat");
  await writeCatalog(catalog);
  const out = join(ws.dir, "overdue-out");
  const { run, received } = await ws.mailed(
    ["report", "team-overdue", "--catalog", catalog, "--db", "lms.duckdb", "--out", out, "--mail"],
    (url) => ({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com", LMS_QUIET: "1" }),
  );
  expect(run.code, run.stderr).toBe(0);
  // The whole report draws the chart.
  const whole = await readFile(join(out, "team-overdue.html"), "utf8");
  expect(whole).toContain(CHART_TITLE);
  expect(whole).toContain("<svg");

  const shares = await readdir(join(out, "split"));
  expect(shares.sort()).toEqual([...Object.keys(MANAGERS), "unassigned"].sort());
  for (const share of shares) {
    const html = await readFile(join(out, "split", share, "team-overdue.html"), "utf8");
    // The share holds the manager's compliance rows, not the query the chart is of.
    expect(html).toContain("Compliance: required products per person");
    expect(html).not.toContain("Overdue required products by group");
    expect(html, share).not.toContain(CHART_TITLE);
    expect(html, share).not.toContain("No rows to draw.");
    expect(html, share).not.toContain("<svg");
  }
  // The attachment mailed is the share's file, and the body leaves the chart out too.
  const sales = received.find((m) => m.to.join() === "sales.lead@example.com");
  const attached = sales?.parsed.attachments.find((a) => a.filename === "team-overdue.html");
  expect(attached?.content.toString("utf8")).toBe(
    await readFile(join(out, "split", "sales.lead@example.com", "team-overdue.html"), "utf8"),
  );
  expect(String(sales?.parsed.html)).not.toContain(CHART_TITLE);
});
