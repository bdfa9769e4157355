/**
 * A mail server URL holding a password is refused by every command that reads the settings,
 * whether it mails or not, and whichever source gives it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const PASSWORD = "Smtp-Pw-77qx";
const REFUSAL = "mail.smtpUrl)) contains a password: remove it from the URL";

async function run(args: string[], smtpUrl: string, env: Record<string, string> = {}) {
  const dir = await tempDir("lms-smtp-pw-");
  const config = { baseUrl: "http://127.0.0.1:9/api-v2", mail: { smtpUrl, from: "r@example.com" } };
  await writeFile(join(dir, "lms.json"), JSON.stringify(config));
  return runInProcess([...args, "--config", "lms.json"], dir, { LMS_API_KEY: "a-key", ...env });
}

describe("a password in mail.smtpUrl of the config file", () => {
  it.each([
    ["extract"],
    ["sql", "SELECT 1"],
    ["report", "weekly-compliance", "--format", "csv"],
    ["check"],
  ])("is refused by %s, exit 2, the password not shown", async (...args) => {
    const result = await run(args, `smtp://reports:${PASSWORD}@mail.example.com:587`);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout + result.stderr).toContain(REFUSAL);
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
  });

  it("is refused even where LMS_SMTP_URL overrides it", async () => {
    const result = await run(["sql", "SELECT 1"], `smtp://reports:${PASSWORD}@mail.example.com`, {
      LMS_SMTP_URL: "smtp://reports@mail.example.com:587",
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(REFUSAL);
  });

  it("is refused when LMS_SMTP_URL holds it, for a command that does not mail", async () => {
    const result = await run(["sql", "SELECT 1"], "smtp://reports@mail.example.com", {
      LMS_SMTP_URL: `smtp://reports:${PASSWORD}@mail.example.com`,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the mail server URL (from LMS_SMTP_URL) contains a password");
    expect(result.stderr).not.toContain(PASSWORD);
  });

  it("a user without a password is accepted: the command goes on", async () => {
    const result = await run(["sql", "SELECT 1"], "smtp://reports@mail.example.com:587");
    expect(result.stderr).not.toContain("contains a password");
    expect(result.stderr).toContain("does not exist");
  });
});
