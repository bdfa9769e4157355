/**
 * `run REPORT --mail-to` end to end in-process: extract from the simulated portal over real HTTP
 * into a new DuckDB file, write the report, mail it through a real SMTP server on 127.0.0.1.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { runCliIn } from "./cli-harness.js";
import { type SmtpFixture, startSmtp } from "./smtp-fixture.js";

let dir: string;
let sim: RunningSimulator;
let smtp: SmtpFixture;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-run-mail-"));
  sim = await startSimulator({ users: 40, takesPerUser: 3, seed: 5 });
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** `run REPORT --db DB --out DB-out --mail` from the simulator; `env` over the mail settings. */
function runMail(report: string, db: string, env: Record<string, string>) {
  return runCliIn(dir, ["run", report, "--db", db, "--out", `${db}-out`, "--mail"], {
    LMS_BASE_URL: sim.baseUrl,
    LMS_API_KEY: "demo-key",
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: "reports@example.com",
    ...env,
  });
}

test("run extracts, writes the report and mails it", async () => {
  const run = await runCliIn(
    dir,
    [
      "run",
      "data-freshness",
      "--db",
      "lms.duckdb",
      "--out",
      "out",
      "--format",
      "csv",
      "--mail-to",
      "ops@example.com",
      "--log-format",
      "json",
    ],
    {
      LMS_BASE_URL: sim.baseUrl,
      LMS_API_KEY: "demo-key",
      LMS_SMTP_URL: smtp.url,
      LMS_MAIL_FROM: "reports@example.com",
    },
  );
  expect(run.stderr).not.toContain('"level":"error"');
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("mail: 1 message sent");
  await smtp.close();
  const [message] = smtp.received;
  expect(message?.to).toEqual(["ops@example.com"]);
  // Data was loaded by this very run, and the body says when.
  expect(message?.parsed.text).toMatch(/Data loaded: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  const attachment = message?.parsed.attachments[0];
  expect(
    attachment?.content.equals(await readFile(join(dir, "out", attachment.filename as string))),
  ).toBe(true);
});

test("run --mail of a report without a mail block stops before the extract", async () => {
  const before = sim.stats.requests;
  const run = await runMail("data-freshness", "blockless.duckdb", {});
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/^lms-export: reports\/data-freshness\.json has no "mail" block/);
  // Not a request to the portal, not a database.
  expect(sim.stats.requests).toBe(before);
  expect(existsSync(join(dir, "blockless.duckdb"))).toBe(false);
});

test("run weekly-compliance --mail sends a report without a mail block to the default recipients", async () => {
  const server = await startSmtp();
  try {
    const run = await runMail("weekly-compliance", "default.duckdb", {
      LMS_SMTP_URL: server.url,
      LMS_MAIL_DEFAULT_TO: "Compliance@Example.com, audit@example.com",
      LMS_LOG_FORMAT: "json",
    });
    expect(run.stderr).not.toContain('"level":"error"');
    expect(run.code).toBe(0);
    await server.close();
    expect(server.received).toHaveLength(1);
    const [message] = server.received;
    expect(message?.to.sort()).toEqual(["audit@example.com", "compliance@example.com"]);
    // The settings one to a line, in both parts, a list's items apart.
    const statuses = "inactive, suspended, disabled, deactivated, deleted, archived";
    expect(message?.parsed.text).toMatch(
      /\nSettings:\n- Reference day [^\n]*: \d{4}-\d{2}-\d{2}\n/,
    );
    expect(message?.parsed.text).toMatch(new RegExp(`\n- People whose roster [^\n]*: ${statuses}`));
    expect(message?.parsed.html).toMatch(
      /Settings:<\/p>\s*<ul[^>]*><li><span title="today">Reference day[^<]*<\/span>: <strong>\d{4}-\d{2}-\d{2}<\/strong><\/li>/,
    );
    // Whole, with every format the definition writes, byte for byte (the charts are inline).
    const files = (message?.parsed.attachments ?? []).filter((a) => !a.related);
    expect(files.map((a) => a.filename).some((n) => n?.endsWith(".xlsx"))).toBe(true);
    for (const attachment of files) {
      const onDisk = await readFile(join(dir, "default.duckdb-out", attachment.filename as string));
      expect(attachment.content.equals(onDisk)).toBe(true);
    }
  } finally {
    await server.close();
  }
});

test("a bad default recipient stops run --mail before the extract, naming the setting", async () => {
  const before = sim.stats.requests;
  const run = await runMail("weekly-compliance", "bad-default.duckdb", {
    LMS_MAIL_DEFAULT_TO: "compliance@example.com,not-an-address",
  });
  expect(run.code).toBe(2);
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.stderr).toContain('LMS_MAIL_DEFAULT_TO: "not-an-address" is not an e-mail address');
  expect(sim.stats.requests).toBe(before);
  expect(existsSync(join(dir, "bad-default.duckdb"))).toBe(false);
});

test("run with a report named twice writes and mails it once", async () => {
  const server = await startSmtp();
  try {
    const run = await runCliIn(
      dir,
      [
        "run",
        "data-freshness",
        "data-freshness",
        "--db",
        "twice.duckdb",
        "--out",
        "twice-out",
      ].concat(["--format", "csv", "--mail-to", "ops@example.com"]),
      {
        LMS_BASE_URL: sim.baseUrl,
        LMS_API_KEY: "demo-key",
        LMS_SMTP_URL: server.url,
        LMS_MAIL_FROM: "reports@example.com",
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("mail: 1 message sent");
    await server.close();
    expect(server.received).toHaveLength(1);
  } finally {
    await server.close();
  }
});
