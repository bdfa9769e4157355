/**
 * The three secrets (the API key, the SMTP password, the PostgreSQL password), each given every
 * way the product takes it, through the whole chain (in-process through main(), and `schedule`
 * as a user runs it, the built CLI whose runs are its child processes): extract, check, roster import, report and run with mail, apply, publish to
 * PostgreSQL and to a lake, sql, schedule, and a failing run of each (a wrong secret, a server out
 * of reach). None of them, nor the wrong ones, may show in any output, any file of the working
 * folder (the database's bytes, its .wal, journals, reports, the lake), any mail received, any
 * published PostgreSQL row, or the command line of any process.
 */
import type { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type PgServer, postgresInstalled, startPgServer } from "../../src/bench/temp-postgres.js";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { builtCli } from "../helpers/built-cli.js";
import { type ChildOutput, collect } from "../helpers/child-output.js";
import { type InProcessRun, runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";
import { type SmtpFixture, startSmtp } from "../mail/smtp-fixture.js";

const KEY = "Kx7-apikey-9f2e61c04d";
const SMTP_PASSWORD = "Sx7-smtppw-3b8a05e7f1";
const PG_PASSWORD = "Px7-pgpw-6d1c92a4b0";
const WRONG_KEY = "Wx7-badkey-1e4f7a93c2";
const WRONG_SMTP = "Wx7-badsmtp-8c2d61f0a5";
const WRONG_PG = "Wx7-badpg-5a9e30b7d4";
const SECRETS = [KEY, SMTP_PASSWORD, PG_PASSWORD, WRONG_KEY, WRONG_SMTP, WRONG_PG];

/** Every form a secret could be written in: as is, URL-encoded, base64 (SMTP AUTH, Basic). */
function forms(secret: string): string[] {
  const b64 = (text: string) => Buffer.from(text).toString("base64");
  return [
    secret,
    encodeURIComponent(secret),
    b64(secret),
    b64(`\0reports\0${secret}`),
    Buffer.from(secret, "utf16le").toString("latin1"),
  ];
}

/** The secrets found in `text`, for a message that names where. */
function leaks(where: string, bytes: Buffer | string): string[] {
  const text = typeof bytes === "string" ? bytes : bytes.toString("latin1");
  return SECRETS.flatMap((secret) =>
    forms(secret).some((form) => text.includes(form)) ? [`${where}: ${secret}`] : [],
  );
}

const dir = tempDirForFile("lms-secrets-");
const installed = postgresInstalled();
let sim: RunningSimulator;
let smtp: SmtpFixture;
let server: PgServer | undefined;
let admin: pg.Client | undefined;
let pgUrl = "";
const outputs: { label: string; run: ChildOutput | InProcessRun }[] = [];
const argvLeaks = new Set<string>();
let watching = true;
let watcher: Promise<void> | undefined;

/** Reads every process's command line until the suite ends: no secret may be on one. */
async function watchCommandLines(): Promise<void> {
  while (watching) {
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      try {
        const line = readFileSync(`/proc/${pid}/cmdline`);
        for (const found of leaks(`argv of ${pid}`, line)) argvLeaks.add(found);
      } catch {
        // The process ended meanwhile.
      }
    }
    await sleep(5);
  }
}

beforeAll(async () => {
  watcher = watchCommandLines();
  sim = await startSimulator({ apiKey: KEY, users: 60, takesPerUser: 2, seed: 7 });
  smtp = await startSmtp({ auth: { user: "reports", pass: SMTP_PASSWORD } });
  if (installed) {
    server = await startPgServer();
    admin = await server.admin();
    await admin.query(`CREATE ROLE publisher LOGIN PASSWORD '${PG_PASSWORD}'`);
    await admin.query("CREATE DATABASE bi OWNER publisher");
    pgUrl = `postgres://publisher@127.0.0.1:${server.port}/bi`;
  }
  await writeFile(join(dir, "key"), `${KEY}\n`, { mode: 0o600 });
  await writeFile(join(dir, "wrong-key"), `${WRONG_KEY}\n`, { mode: 0o600 });
  await writeFile(join(dir, "smtp-password"), `${SMTP_PASSWORD}\n`, { mode: 0o600 });
  await writeFile(join(dir, "wrong-smtp"), `${WRONG_SMTP}\n`, { mode: 0o600 });
  await writeFile(join(dir, "pg-password"), `${PG_PASSWORD}\n`, { mode: 0o600 });
  await writeFile(join(dir, "wrong-pg"), `${WRONG_PG}\n`, { mode: 0o600 });
  await mkdir(join(dir, "etc"));
  await writeFile(
    join(dir, "etc", "lms-export.config.json"),
    JSON.stringify({
      baseUrl: sim.baseUrl,
      apiKeyFile: join(dir, "key"),
      db: join(dir, "lms.duckdb"),
      mail: {
        smtpUrl: smtp.url.replace("smtp://", "smtp://reports@"),
        smtpPasswordFile: join(dir, "smtp-password"),
        from: "lms@example.com",
      },
    }),
  );
}, 120_000);

afterAll(async () => {
  watching = false;
  await watcher;
  await admin?.end().catch(() => undefined);
  await server?.stop();
  await smtp?.close();
  await sim?.close();
});

/**
 * The CLI in-process in the working folder, with `env` over a bare environment (the environment
 * of this test could hold its own settings); its output kept for the search.
 */
async function cli(label: string, args: string[], env: Record<string, string> = {}) {
  const bare = { PATH: process.env.PATH ?? "", HOME: dir, LMS_LOG_FORMAT: "json" };
  const run = await runInProcess(args, dir, { ...bare, ...env });
  outputs.push({ label, run });
  return run;
}

const portal = () => ({ LMS_BASE_URL: sim.baseUrl });
const mailEnv = () => ({
  LMS_SMTP_URL: smtp.url.replace("smtp://", "smtp://reports@"),
  LMS_MAIL_FROM: "lms@example.com",
});

/** Every file under `root`, with its bytes. */
function filesUnder(root: string): { path: string; bytes: Buffer }[] {
  const found: { path: string; bytes: Buffer }[] = [];
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    const info = statSync(path);
    if (info.isDirectory()) found.push(...filesUnder(path));
    else found.push({ path, bytes: readFileSync(path) });
  }
  return found;
}

/** A run that must succeed. */
const ok = (run: ChildOutput | InProcessRun) => expect(run.code, run.stderr).toBe(0);

/** extract, check and roster import, the key from a flag's file, the environment, a config file. */
async function extractEveryWay(): Promise<void> {
  ok(await cli("extract flag", ["extract", "--api-key-file", "key"], portal()));
  ok(
    await cli("extract env file", ["extract", "--incremental", "--log-format", "human"], {
      ...portal(),
      LMS_API_KEY_FILE: join(dir, "key"),
    }),
  );
  ok(await cli("extract env key", ["extract", "--full"], { ...portal(), LMS_API_KEY: KEY }));
  ok(await cli("extract config", ["extract", "--config", "etc/lms-export.config.json"]));
  ok(await cli("check", ["check", "--api-key-file", "key"], portal()));
  await writeFile(join(dir, "people.csv"), "user_id,first name,email\n1,Ann,ann@example.com\n");
  ok(await cli("roster", ["roster", "import", "people.csv"]));
}

/** report and run with mail, the password from each of its sources; then apply. */
async function mailEveryWayAndApply(): Promise<void> {
  const mailTo = ["--mail-to", "boss@example.com"];
  ok(
    await cli("report mail file", ["report", "access", ...mailTo], {
      ...mailEnv(),
      LMS_SMTP_PASSWORD_FILE: join(dir, "smtp-password"),
    }),
  );
  ok(
    await cli("report mail env", ["report", "access", ...mailTo, "--log-format", "human"], {
      ...mailEnv(),
      LMS_SMTP_PASSWORD: SMTP_PASSWORD,
    }),
  );
  const config = ["--config", "etc/lms-export.config.json"];
  ok(await cli("run mail config", ["run", "weekly-compliance", ...mailTo, ...config]));
  const flag = ["--smtp-password-file", "smtp-password"];
  ok(await cli("report mail flag", ["report", "access", ...mailTo, ...flag], mailEnv()));
  const access = sim.data.list("product_access")[0];
  await writeFile(
    join(dir, "changes.csv"),
    `product_access_id,product_access_expired_date\n${access?.product_access_id},2030-01-01\n`,
  );
  ok(await cli("apply", [...APPLY, "--api-key-file", "key"], portal()));
}

const APPLY = ["apply", "changes.csv", "--op", "product_access.edit", "--yes"];

/** publish to PostgreSQL, the password from its file, PGPASSWORD and PGPASSFILE; then a lake. */
async function publishEveryWay(): Promise<void> {
  if (installed) {
    const publish = ["publish", "--postgres", pgUrl];
    ok(await cli("publish pg file", publish, { LMS_PG_PASSWORD_FILE: join(dir, "pg-password") }));
    ok(await cli("publish pg env", publish, { PGPASSWORD: PG_PASSWORD }));
    await writeFile(join(dir, "pgpass"), `*:*:*:publisher:${PG_PASSWORD}\n`, { mode: 0o600 });
    ok(
      await cli("publish pg pass", [...publish, "--log-format", "human"], {
        PGPASSFILE: join(dir, "pgpass"),
      }),
    );
  }
  ok(await cli("publish lake", ["publish", "--lake", "lake"]));
  ok(await cli("sql", ["sql", "SELECT * FROM _runs", "--format", "json"]));
}

/** A wrong key, a portal out of reach, for each command that talks to the portal. */
async function portalFailures(): Promise<void> {
  const closed = "http://127.0.0.1:9/api-v2";
  const wrongKey = ["--api-key-file", "wrong-key"];
  await cli("extract wrong key", ["extract", ...wrongKey], portal());
  await cli("extract env wrong key", ["extract"], { ...portal(), LMS_API_KEY: WRONG_KEY });
  await cli("extract unreachable", ["extract", "--api-key-file", "key", "--base-url", closed]);
  await cli("check wrong key", ["check", ...wrongKey], portal());
  await cli("check unreachable", ["check", "--base-url", closed], { LMS_API_KEY: KEY });
  await cli("apply wrong key", [...APPLY, ...wrongKey], portal());
  await cli("apply unreachable", [...APPLY, "--base-url", closed], { LMS_API_KEY: KEY });
}

/** A wrong SMTP password, a mail server out of reach, a wrong or unreachable PostgreSQL. */
async function serverFailures(): Promise<void> {
  const report = ["report", "access", "--mail-to", "boss@example.com"];
  await cli("report wrong smtp", report, { ...mailEnv(), LMS_SMTP_PASSWORD: WRONG_SMTP });
  await cli("report wrong smtp file", report, {
    ...mailEnv(),
    LMS_SMTP_PASSWORD_FILE: join(dir, "wrong-smtp"),
  });
  await cli("report smtp unreachable", report, {
    LMS_SMTP_URL: "smtp://reports@127.0.0.1:9",
    LMS_MAIL_FROM: "lms@example.com",
    LMS_SMTP_PASSWORD: SMTP_PASSWORD,
  });
  const run = ["run", "access", "--mail-to", "boss@example.com", "--api-key-file", "wrong-key"];
  await cli("run wrong key", run, { ...portal(), ...mailEnv(), LMS_SMTP_PASSWORD: WRONG_SMTP });
  if (!installed) return;
  const publish = ["publish", "--postgres", pgUrl];
  await cli("publish wrong pg", publish, { PGPASSWORD: WRONG_PG });
  await cli("publish wrong pg file", publish, { LMS_PG_PASSWORD_FILE: join(dir, "wrong-pg") });
  const away = ["publish", "--postgres", "postgres://publisher@127.0.0.1:9/bi"];
  await cli("publish pg unreachable", away, { PGPASSWORD: PG_PASSWORD });
  const inUrl = pgUrl.replace("publisher@", `publisher:${PG_PASSWORD}@`);
  await cli("publish pg password in url", ["publish", "--postgres", inUrl]);
}

/** schedule runs `run` with mail as a child process, the secrets in its environment. */
async function scheduledRun(): Promise<void> {
  const args = ["schedule", "--cron", "0 0 1 1 *", "--run-now", "--", "run", "access"];
  const env = { ...portal(), ...mailEnv(), LMS_API_KEY: KEY, LMS_SMTP_PASSWORD: SMTP_PASSWORD };
  const scheduled = builtCli([...args, "--mail-to", "boss@example.com"], dir, {
    ...env,
    LMS_LOG_FORMAT: "json",
  });
  const done = collect(scheduled);
  await untilOutput(scheduled, /"run (succeeded|failed)"/);
  scheduled.kill("SIGTERM");
  const run = await done;
  outputs.push({ label: "schedule", run });
  expect(run.stderr).toContain('"run succeeded"');
}

/** Every secret found anywhere it must not be. */
async function everyLeak(): Promise<string[]> {
  const found = [...argvLeaks];
  for (const { label, run } of outputs) {
    found.push(...leaks(`${label} stdout`, run.stdout), ...leaks(`${label} stderr`, run.stderr));
  }
  for (const file of filesUnder(dir)) {
    if (SECRET_FILES.includes(basename(file.path))) continue;
    found.push(...leaks(file.path, file.bytes));
  }
  for (const [i, mail] of smtp.received.entries()) found.push(...leaks(`mail ${i}`, mail.raw));
  if (server) found.push(...leaks("postgres", await publishedText(server)));
  return found;
}

const SECRET_FILES = [
  "key",
  "wrong-key",
  "smtp-password",
  "wrong-smtp",
  "pg-password",
  "wrong-pg",
  "pgpass",
];

describe("no secret leaks, whatever way it is given", () => {
  test("the whole chain, then every failure", { timeout: 240_000 }, async () => {
    await extractEveryWay();
    await mailEveryWayAndApply();
    await publishEveryWay();
    await portalFailures();
    await serverFailures();
    await scheduledRun();
    expect(await everyLeak()).toEqual([]);
    expect(smtp.received.length).toBeGreaterThan(3);
  });
});

/** Waits until the child's stderr matches `pattern`. */
async function untilOutput(child: ChildProcess, pattern: RegExp): Promise<void> {
  let text = "";
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (pattern.test(text)) resolve();
    });
    child.once("exit", () => reject(new Error(`ended before ${pattern}: ${text}`)));
  });
}

/** Every published row of every table in the schema, as text. */
async function publishedText(pgServer: PgServer): Promise<string> {
  const client = await pgServer.admin("bi");
  try {
    const tables = await client.query(
      "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')",
    );
    let text = "";
    for (const { table_schema, table_name } of tables.rows) {
      const rows = await client.query(
        `SELECT t::text AS row FROM "${table_schema}"."${table_name}" t`,
      );
      text += rows.rows.map((r) => r.row).join("\n");
    }
    return text;
  } finally {
    await client.end();
  }
}
