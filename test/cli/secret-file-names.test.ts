/**
 * A secret put where its file's path belongs is never printed back, however short: the password
 * and key file settings of publish --postgres, mail and the portal name the setting, not its
 * value, when it names no file. In-process through main().
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const cwd = tempDirForFile("lms-secret-names-");
const SHORT = "S3cretPW";
const LONG = "S3cretPasswordValue12345";

async function refused(args: string[], env: Record<string, string>, secret: string) {
  const run = await runInProcess(args, cwd, { LMS_LOG_FORMAT: "json", ...env });
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr).not.toContain(secret);
  expect(run.stdout).not.toContain(secret);
  return run.stderr;
}

const PUBLISH = ["publish", "--postgres", "postgres://bi@127.0.0.1:9/analytics"];
const MAIL = ["report", "access", "--mail-to", "boss@example.com"];
const MAIL_ENV = { LMS_SMTP_URL: "smtp://reports@127.0.0.1:2525", LMS_MAIL_FROM: "r@example.com" };
const EXTRACT = ["extract", "--base-url", "http://127.0.0.1:9/api-v2"];

describe("a password or key file setting that names no file", () => {
  it.each([
    [PUBLISH, {}, "LMS_PG_PASSWORD_FILE", "PostgreSQL password"],
    [MAIL, MAIL_ENV, "LMS_SMTP_PASSWORD_FILE", "SMTP password"],
    [EXTRACT, {}, "LMS_API_KEY_FILE", "API key"],
  ])("%j names %s, never its value", async (args, env, variable, what) => {
    const short = await refused(args, { ...env, [variable]: `/tmp/rc/${SHORT}` }, SHORT);
    expect(short).toBe(
      `lms-export: the ${what} file named by ${variable} does not exist: create it with the ${what.split(" ").at(-1)} on one line, or fix the setting\n`,
    );
    const long = await refused(args, { ...env, [variable]: LONG }, LONG);
    expect(long).toContain(`(from ${variable}) names no file and looks like a`);
  });

  it("an existing file is named by its path: it is a path, not a secret", async () => {
    const empty = join(cwd, "empty-password");
    writeFileSync(empty, "\n", { mode: 0o600 });
    const message = await refused(PUBLISH, { LMS_PG_PASSWORD_FILE: empty }, "never-there");
    expect(message).toBe(
      `lms-export: the PostgreSQL password file ${empty} (from LMS_PG_PASSWORD_FILE) is empty: write the PostgreSQL password on its first line\n`,
    );
  });

  it("a PostgreSQL password file other users may read is warned about, as a key file is", async () => {
    const open = join(cwd, "readable-password");
    writeFileSync(open, `${LONG}\n`, { mode: 0o644 });
    const run = await runInProcess([...PUBLISH, "--db", join(cwd, "none.duckdb")], cwd, {
      LMS_LOG_FORMAT: "json",
      LMS_PG_PASSWORD_FILE: open,
    });
    expect(run.stderr).toContain(
      "the PostgreSQL password file can be read by other users: restrict it with chmod 600",
    );
    expect(run.stderr).toContain('"mode":"0644"');
    expect(run.stderr + run.stdout).not.toContain(LONG);
  });
});
