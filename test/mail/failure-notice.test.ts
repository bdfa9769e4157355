/**
 * --mail-failures-to (LMS_MAIL_FAILURES_TO): a `run`, `report`, `extract`, `publish`, `roster
 * import` or `apply --yes` that fails tells those addresses by mail, through a real SMTP server on
 * 127.0.0.1, with the line the command ended with; one that succeeds, or is stopped, tells
 * nobody, nor `apply` asked at a terminal; a notice that cannot go leaves the command's own
 * failure as it was. A `run` that mails reads the mail server's password once, for its notice
 * and its mailing: a password from a pipe has nothing left to give a second read.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { closedPort } from "../helpers/closed-port.js";
import { runCliIn } from "./cli-harness.js";
import { startSmtp } from "./smtp-fixture.js";

let dir: string;
let sim: RunningSimulator;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-failure-notice-"));
  sim = await startSimulator({ users: 20, takesPerUser: 2, seed: 11 });
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

/** The settings of a run that mails its failures to ops@example.com through `smtpUrl`. */
function settings(smtpUrl: string, baseUrl: string): Record<string, string> {
  return {
    LMS_BASE_URL: baseUrl,
    LMS_API_KEY: "demo-key",
    LMS_SMTP_URL: smtpUrl,
    LMS_MAIL_FROM: "reports@example.com",
    LMS_MAIL_FAILURES_TO: "ops@example.com, Lead@Example.com",
    LMS_LOG_FORMAT: "json",
  };
}

/**
 * Runs `args` with the settings of {@link settings} (`env` over them) against a fresh SMTP server
 * and a portal at `baseUrl` (default: one where nothing listens); answers the run and what the
 * server received, once it is closed.
 */
async function runTelling(args: string[], env: Record<string, string> = {}, baseUrl?: string) {
  const smtp = await startSmtp();
  try {
    const portal = baseUrl ?? `http://127.0.0.1:${await closedPort()}/api-v2`;
    const run = await runCliIn(dir, args, { ...settings(smtp.url, portal), ...env });
    await smtp.close();
    return { run, received: smtp.received };
  } finally {
    await smtp.close();
  }
}

/** The last line a run printed on stderr. */
function lastLine(stderr: string): string {
  return stderr.trimEnd().split("\n").at(-1) ?? "";
}

test("a run whose portal cannot be reached tells the failure addresses, and fails as before", async () => {
  const { run, received } = await runTelling([
    "run",
    "data-freshness",
    "--db",
    "down.duckdb",
    "--out",
    "down-out",
  ]);
  expect(run.code).toBe(1);
  const failure = lastLine(run.stderr);
  expect(failure).toMatch(/^lms-export: .*127\.0\.0\.1/);
  expect(received).toHaveLength(1);
  const [notice] = received;
  expect(notice?.to.sort()).toEqual(["lead@example.com", "ops@example.com"]);
  expect(notice?.parsed.subject).toMatch(/^lms-export run data-freshness failed on \S+$/);
  // The very line the run ended with, whole, in both parts; where it ran; never the key.
  expect(notice?.parsed.text).toContain(failure);
  expect(notice?.parsed.text).toContain(`in ${dir}`);
  expect(notice?.parsed.text).toMatch(/\(exit 1\)/);
  expect(notice?.parsed.html).toContain("lms-export check");
  expect(notice?.raw.toString("latin1")).not.toContain("demo-key");
  expect(run.stderr).toContain("told ops@example.com, lead@example.com of the failure by mail");
});

test("a run whose API key file is gone, before any other setting is read through, tells them too", async () => {
  const { run, received } = await runTelling(
    ["run", "data-freshness", "--db", "nokey.duckdb"],
    { LMS_API_KEY: "", LMS_API_KEY_FILE: join(dir, "rotated.key") },
    sim.baseUrl,
  );
  expect(run.code).toBe(2);
  expect(lastLine(run.stderr)).toBe(
    "lms-export: the API key file named by LMS_API_KEY_FILE does not exist: create it with the key on one line, or fix the setting",
  );
  expect(received).toHaveLength(1);
  expect(received[0]?.parsed.text).toContain(lastLine(run.stderr));
  expect(received[0]?.parsed.text).toMatch(/\(exit 2\)/);
});

test("an extract tells them too, its recipients from the environment", async () => {
  const { run, received } = await runTelling(["extract", "--db", "extract-down.duckdb"]);
  expect(run.code).toBe(1);
  expect(received).toHaveLength(1);
  expect(received[0]?.parsed.subject).toMatch(/^lms-export extract failed on \S+$/);
  expect(received[0]?.parsed.text).toContain(lastLine(run.stderr));
});

test("a run that succeeds tells nobody", async () => {
  const smtp = await startSmtp();
  try {
    const run = await runCliIn(
      dir,
      ["run", "data-freshness", "--db", "ok.duckdb", "--out", "ok-out", "--format", "csv"],
      settings(smtp.url, sim.baseUrl),
    );
    expect(run.code).toBe(0);
    await smtp.close();
    expect(smtp.received).toHaveLength(0);
    expect(smtp.connections).toBe(0);
  } finally {
    await smtp.close();
  }
});

test("a notice that cannot be sent is a warning, and the run's own failure is its last line", async () => {
  const portal = `http://127.0.0.1:${await closedPort()}/api-v2`;
  const mailServer = `smtp://127.0.0.1:${await closedPort()}`;
  const run = await runCliIn(
    dir,
    ["run", "data-freshness", "--db", "both-down.duckdb", "--out", "both-out"],
    settings(mailServer, portal),
  );
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(
    /"level":"warn"[^\n]*could not tell ops@example\.com, lead@example\.com of the failure by mail/,
  );
  expect(lastLine(run.stderr)).toMatch(/^lms-export: .*127\.0\.0\.1/);
  expect(lastLine(run.stderr)).not.toContain("failure by mail");
});

test("a failure address that is no address stops the run before the portal is asked", async () => {
  const before = sim.stats.requests;
  const run = await runCliIn(dir, ["run", "data-freshness", "--db", "typo.duckdb"], {
    ...settings("smtp://127.0.0.1:2525", sim.baseUrl),
    LMS_MAIL_FAILURES_TO: "ops@example.com, ops-at-example.com",
  });
  expect(run.code).toBe(2);
  expect(lastLine(run.stderr)).toMatch(
    /^lms-export: LMS_MAIL_FAILURES_TO: "ops-at-example\.com" is not an e-mail address/,
  );
  expect(sim.stats.requests).toBe(before);
  expect(existsSync(join(dir, "typo.duckdb"))).toBe(false);
});

test("a report that fails tells them; one stopped by Ctrl-C does not", async () => {
  const smtp = await startSmtp();
  try {
    const env = settings(smtp.url, sim.baseUrl);
    const missing = await runCliIn(dir, ["report", "data-freshness", "--db", "gone.duckdb"], env);
    expect(missing.code).toBe(2);
    const stopped = new AbortController();
    stopped.abort();
    const run = await runCliIn(
      dir,
      ["run", "data-freshness", "--db", "stopped.duckdb", "--out", "stopped-out"],
      env,
      stopped.signal,
    );
    expect(run.code).toBe(130);
    await smtp.close();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.parsed.subject).toMatch(/^lms-export report data-freshness failed/);
    expect(smtp.received[0]?.parsed.text).toContain(lastLine(missing.stderr));
  } finally {
    await smtp.close();
  }
});

test.each([
  // A typo in a flag checked at the start is a failure like any other.
  [["extract", "--only", "grp,usr_grp", "--db", "only-typo.duckdb"], "extract"],
  [["publish", "--lake", "lake", "--db", "never-extracted.duckdb"], "publish"],
  [
    ["roster", "import", "people-gone.csv", "--db", "roster.duckdb"],
    "roster import people-gone.csv",
  ],
  [
    ["apply", "extend.csv", "--op", "product_access.edit", "--yes", "--db", "none.duckdb"],
    "apply extend.csv --op product_access.edit",
  ],
])("%j tells the failure addresses", async (args, named) => {
  const { run, received } = await runTelling(args, {}, sim.baseUrl);
  expect(run.code).not.toBe(0);
  expect(received).toHaveLength(1);
  expect(received[0]?.to.sort()).toEqual(["lead@example.com", "ops@example.com"]);
  expect(received[0]?.parsed.subject).toMatch(new RegExp(`^lms-export ${named} failed on \\S+$`));
  expect(received[0]?.parsed.text).toContain(lastLine(run.stderr));
  expect(received[0]?.raw.toString("latin1")).not.toContain("demo-key");
});

test("apply without --yes, which a person answers at a terminal, tells nobody", async () => {
  const { run, received } = await runTelling(
    ["apply", "extend.csv", "--op", "product_access.edit", "--db", "none.duckdb"],
    {},
    sim.baseUrl,
  );
  expect(run.code).not.toBe(0);
  expect(lastLine(run.stderr)).toContain("none.duckdb does not exist");
  expect(received).toHaveLength(0);
});

test("a run that mails, its password in a pipe, reads it once for the notice and the mailing", async () => {
  const smtp = await startSmtp({ auth: { user: "reporter", pass: "s3cret-pw" } });
  const fifo = join(dir, "smtp-password");
  await new Promise<void>((resolve, reject) => {
    spawn("mkfifo", [fifo]).on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`mkfifo ${code}`)),
    );
  });
  // Others may read it: the warning says so, once, as the password is read once.
  await chmod(fifo, 0o644);
  // One writer, as `<(pass show smtp)` is: the pipe gives the password to one reader.
  const writer = spawn("sh", ["-c", 'printf "s3cret-pw\\n" > "$0"', fifo]);
  try {
    const run = await runCliIn(
      dir,
      [
        "run",
        "data-freshness",
        "--db",
        "piped.duckdb",
        "--out",
        "piped-out",
        "--mail-to",
        "lead@example.com",
      ],
      {
        LMS_BASE_URL: sim.baseUrl,
        LMS_API_KEY: "demo-key",
        LMS_SMTP_URL: `smtp://reporter@127.0.0.1:${smtp.port}`,
        LMS_SMTP_PASSWORD_FILE: fifo,
        LMS_MAIL_FROM: "reports@example.com",
        LMS_MAIL_FAILURES_TO: "ops@example.com",
      },
    );
    expect(run.stderr.match(/can be read by other users/g)).toHaveLength(1);
    expect(run.code).toBe(0);
    await smtp.close();
    expect(smtp.received.map((m) => m.to)).toEqual([["lead@example.com"]]);
    expect(smtp.logins).toEqual([{ user: "reporter", pass: "s3cret-pw" }]);
  } finally {
    writer.kill();
    await smtp.close();
  }
}, 60_000);

test("a config file someone broke is told to the recipients the environment names", async () => {
  const broken = join(dir, "broken-config");
  await mkdir(broken, { recursive: true });
  await writeFile(
    join(broken, "lms-export.config.json"),
    '{ "portals": { "acme": { "db": "acme.duckdb", } } }\n',
  );
  const smtp = await startSmtp();
  try {
    const env = settings(smtp.url, sim.baseUrl);
    const report = await runCliIn(broken, ["report", "data-freshness"], env);
    const run = await runCliIn(broken, ["run", "data-freshness", "--portal", "acme"], env);
    // A batch reads its own settings before any portal's: their failure is told the same way.
    const batch = await runCliIn(broken, ["extract", "--all-portals"], env);
    await smtp.close();
    for (const failed of [report, run, batch]) {
      expect(failed.code).toBe(2);
      expect(lastLine(failed.stderr)).toContain("not valid JSON");
    }
    expect(smtp.received.map((m) => m.parsed.subject)).toEqual([
      expect.stringMatching(/^lms-export report data-freshness failed on /),
      expect.stringMatching(/^lms-export run data-freshness --portal acme failed on /),
      expect.stringMatching(/^lms-export extract --all-portals failed on /),
    ]);
    expect(smtp.received[1]?.parsed.text).toContain(lastLine(run.stderr));
  } finally {
    await smtp.close();
  }
});

test("a --portal name the config file does not have is told to the config file's recipients", async () => {
  const own = join(dir, "portal-typo");
  await mkdir(own, { recursive: true });
  const config = { mail: { failuresTo: "owner@example.com" }, portals: { acme: {} } };
  await writeFile(join(own, "lms-export.config.json"), JSON.stringify(config));
  const smtp = await startSmtp();
  try {
    const env = { ...settings(smtp.url, sim.baseUrl), LMS_MAIL_FAILURES_TO: "" };
    const run = await runCliIn(own, ["run", "data-freshness", "--portal", "acme-eu"], env);
    await smtp.close();
    expect(run.code).toBe(2);
    expect(lastLine(run.stderr)).toContain("acme-eu");
    expect(smtp.received.map((m) => m.to)).toEqual([["owner@example.com"]]);
  } finally {
    await smtp.close();
  }
});
