/**
 * A report made for a named portal (`--portal`) says which portal it is about: the mail subject
 * (by default; a subject of the mail block may place {portal} itself), the HTML page and mail
 * body ("Portal: NAME") and the workbook's About sheet. Without --portal nothing of it appears.
 * A real simulated portal over HTTP, a real SMTP server, the CLI in-process through main(); the
 * workbook read back with ExcelJS.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { type SmtpFixture, startSmtp } from "../mail/smtp-fixture.js";

const dir = tempDirForFile("lms-portal-named-");
const DATE = String.raw`\d{4}-\d{2}-\d{2}`;
let sim: RunningSimulator;
let smtp: SmtpFixture;

/** A report over the shipped freshness query, mailed under `subject`, into catalog `folder`. */
async function mailedReport(folder: string, name: string, subject: string): Promise<void> {
  const mail = { to: ["ops@example.com"], subject };
  const report = {
    title: "Freshness",
    description: "D",
    queries: ["freshness"],
    formats: ["html"],
    fileName: `${name}-{date}`,
    mail,
  };
  await mkdir(join(dir, folder, "reports"), { recursive: true });
  await writeFile(join(dir, folder, "reports", `${name}.json`), JSON.stringify(report));
}

beforeAll(async () => {
  sim = await startSimulator({ users: 5, takesPerUser: 1, apiKey: "emea-key" });
  smtp = await startSmtp();
  await writeFile(join(dir, "emea.key"), "emea-key\n", { mode: 0o600 });
  // north is extracted elsewhere: only its database is here.
  (await createLmsDatabase({ path: join(dir, "lms-north.duckdb") })).close();
  const portals = { emea: { baseUrl: sim.baseUrl, apiKeyFile: "emea.key" }, north: {} };
  await writeFile(join(dir, "lms-export.config.json"), JSON.stringify({ portals }));
  await mailedReport("cat", "portal-first", "[{portal}] {title}");
  await mailedReport("cat", "own-subject", "{title}: {date}");
});

afterAll(async () => {
  await smtp.close();
  await sim.close();
});

/** The CLI in the test's folder, mailing through the test's SMTP server; fails if it fails. */
async function cli(args: string[]): Promise<void> {
  const env = { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: "reports@example.com" };
  const run = await runCli(dir, args, env);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
}

/** The subjects of the `count` messages received since `from`, once each is parsed. */
async function subjectsFrom(from: number, count: number): Promise<string[]> {
  await expect.poll(() => smtp.received.length).toBe(from + count);
  return smtp.received.slice(from).map((m) => m.parsed.subject ?? "");
}

/** The one file of `folder` ending with `extension`. */
async function written(folder: string, extension: string): Promise<string> {
  const files = (await readdir(join(dir, folder))).filter((f) => f.endsWith(extension));
  expect(files).toHaveLength(1);
  return join(dir, folder, files[0] ?? "");
}

/** The About sheet of a workbook, label to value. */
async function aboutSheet(path: string): Promise<Map<string, unknown>> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const about = new Map<string, unknown>();
  book.getWorksheet("About")?.eachRow((row) => {
    about.set(String(row.getCell(1).value), row.getCell(2).value);
  });
  return about;
}

/** The page with its one line that changes from minute to minute taken out. */
function withoutGenerated(html: string): string {
  return html.replace(/ · generated \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/, "");
}

describe("a report made for a named portal names it", () => {
  test("run --portal --mail-to: the default subject and the mail body name the portal", async () => {
    const from = smtp.received.length;
    await cli(["run", "data-freshness", "--portal", "emea", "--mail-to", "x@example.com"]);
    const [subject] = await subjectsFrom(from, 1);
    expect(subject).toMatch(new RegExp(`^Data freshness, emea \\(${DATE}\\)$`));
    const message = smtp.received[from];
    expect(message?.to).toEqual(["x@example.com"]);
    expect(message?.parsed.html).toMatch(
      /<p style="[^"]*">Portal: emea<\/p>\n<p [^>]*>Data loaded/,
    );
    expect(message?.parsed.text).toMatch(/\nPortal: emea\nData loaded: /);
    const about = await aboutSheet(await written("out/emea", ".xlsx"));
    expect(about.get("Portal")).toBe("emea");
  });

  test("report --portal: the page and the About sheet name it; without --portal nothing does", async () => {
    await cli(["report", "freshness", "--portal", "north", "--format", "html,xlsx"]);
    const page = await readFile(await written("out/north", ".html"), "utf8");
    const line = '<p class="meta">Portal: north</p>\n';
    expect(page).toMatch(/<p class="meta">Portal: north<\/p>\n<p class="meta">Data loaded/);
    const tab = page.match(/<title>([^<]*)<\/title>/)?.[1] ?? "";
    expect(tab).toMatch(/ \(north\)$/);
    const about = await aboutSheet(await written("out/north", ".xlsx"));
    const labels = [...about.keys()];
    expect(labels.indexOf("Portal")).toBe(labels.indexOf("Title") + 1);
    expect(about.get("Portal")).toBe("north");

    // The same database read as a plain --db: no portal line, and the page otherwise the same.
    const plain = ["--db", "lms-north.duckdb", "--out", "plain", "--format", "html,xlsx"];
    await cli(["report", "freshness", ...plain]);
    const plainPage = await readFile(await written("plain", ".html"), "utf8");
    expect(plainPage).not.toContain("Portal:");
    const samePage = page.replace(line, "").replace(tab, tab.replace(/ \(north\)$/, ""));
    expect(withoutGenerated(plainPage)).toBe(withoutGenerated(samePage));
    const plainAbout = await aboutSheet(await written("plain", ".xlsx"));
    expect(plainAbout.has("Portal")).toBe(false);
    expect(plainAbout.get("Title")).toBe(about.get("Title"));
  });

  test("a subject of the mail block keeps its words: {portal} where it says, nothing added", async () => {
    const from = smtp.received.length;
    const reports = ["portal-first", "own-subject"];
    await cli(["report", ...reports, "--portal", "north", "--catalog", "cat", "--mail"]);
    const subjects = await subjectsFrom(from, 2);
    expect(subjects[0]).toBe("[north] Freshness");
    expect(subjects[1]).toMatch(new RegExp(`^Freshness: ${DATE}$`));
  });

  test("a placeholder the subject does not know is still refused", async () => {
    await mailedReport("bad-cat", "bad-subject", "{title} {region}");
    const args = ["report", "bad-subject", "--portal", "north", "--catalog", "bad-cat"];
    const run = await runCli(dir, args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "field mail.subject: unknown placeholder {region}; use {title}, {date}, {today}, {portal}",
    );
  });
});
