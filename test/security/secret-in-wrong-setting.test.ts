/**
 * A secret typed into the wrong setting (the key as the base URL, a password as a number) is
 * refused without being quoted back whole; ordinary wrong values are still quoted.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { quotedUnlessSecret } from "../../src/text/secret-like.js";
import { runInProcess } from "../helpers/in-process-cli.js";
import { tempDir } from "../helpers/temp-dir.js";

const KEY = "sk_live_9f8A7b6C5d4E3f2G1h0";
const PASSWORD = "Tr0ub4dor-3-horse-Battery";

async function refusal(args: string[], env: Record<string, string> = {}, config?: unknown) {
  const dir = await tempDir("lms-wrong-setting-");
  if (config !== undefined) await writeFile(join(dir, "lms.json"), JSON.stringify(config));
  const withConfig = config === undefined ? args : [...args, "--config", "lms.json"];
  const run = await runInProcess(withConfig, dir, { LMS_API_KEY: "a-key", ...env });
  expect(run.code, run.stderr).toBe(2);
  expect(run.stderr.trim().split("\n")).toHaveLength(1);
  return run.stderr;
}

describe("a secret in the wrong setting", () => {
  it.each([
    ["the key as the base URL", ["extract", "--base-url", KEY], {}],
    [
      "the key as a path of the base URL",
      ["extract", "--base-url", `http://lms.example.com/${KEY}`],
      {},
    ],
    [
      "a password as --concurrency",
      ["extract", "--base-url", "https://lms.example.com", "--concurrency", PASSWORD],
      {},
    ],
    [
      "a password as --page-size",
      ["extract", "--base-url", "https://lms.example.com", "--page-size", PASSWORD],
      {},
    ],
    ["a password as --log-format", ["extract", "--log-format", PASSWORD], {}],
    [
      "a password as LMS_CONCURRENCY",
      ["extract", "--base-url", "https://lms.example.com"],
      { LMS_CONCURRENCY: PASSWORD },
    ],
  ] as const)("%s is refused showing its first characters only", async (_, args, env) => {
    const stderr = await refusal([...args], env);
    expect(stderr).not.toContain(KEY.slice(4, 12));
    expect(stderr).not.toContain(PASSWORD.slice(4, 12));
    expect(stderr).toMatch(/(sk_l|Tr0u)…/);
    expect(stderr).toContain("shown in part: it may be a secret");
  });

  it("a password as a number in the config file is refused showing its first characters only", async () => {
    const config = { baseUrl: "https://lms.example.com", concurrency: PASSWORD };
    const stderr = await refusal(["extract"], {}, config);
    expect(stderr).toContain('(got "Tr0u…", shown in part: it may be a secret)');
    expect(stderr).not.toContain(PASSWORD.slice(4, 12));
  });

  it.each([
    ["from", { from: PASSWORD, defaultTo: "a@example.com" }],
    ["defaultTo", { from: "r@example.com", defaultTo: `a@example.com, ${PASSWORD}` }],
  ])("a password as mail.%s is refused showing its first characters only", async (field, mail) => {
    const dir = await tempDir("lms-wrong-setting-");
    const smtp = { smtpUrl: "smtp://127.0.0.1:2525", ...mail };
    await writeFile(
      join(dir, "lms.json"),
      JSON.stringify({ baseUrl: "http://127.0.0.1:9", mail: smtp }),
    );
    const run = await runInProcess(["check", "--config", "lms.json"], dir, {
      LMS_API_KEY: "a-key",
    });
    const line = run.stdout.split("\n").find((l) => l.startsWith("✗ mail settings"));
    expect(line).toContain(`(mail.${field})`);
    // Addresses are compared in lower case, and shown so.
    expect(line).toMatch(/"tr0u…" \(shown in part: it may be a secret\)/i);
    expect((run.stdout + run.stderr).toLowerCase()).not.toContain(
      PASSWORD.slice(4, 12).toLowerCase(),
    );
  });

  it.each([
    [
      ["extract", "--base-url", "lms.example.com/api-v2"],
      '"lms.example.com/api-v2" is not a valid URL',
    ],
    [
      ["extract", "--base-url", "ftp://lms2.example.com/api-v2"],
      "ftp://lms2.example.com/api-v2 uses the ftp scheme",
    ],
    [["extract", "--base-url", "https://lms.example.com", "--concurrency", "12x"], '(got "12x")'],
    [["extract", "--base-url", "https://lms.example.com", "--page-size", "twenty"], 'got "twenty"'],
    [["extract", "--log-format", "xml"], '--log-format "xml" is not accepted'],
  ])("an ordinary wrong value is still quoted whole: %j", async (args, shown) => {
    const stderr = await refusal([...args]);
    expect(stderr).toContain(shown);
    expect(stderr).not.toContain("shown in part");
  });
});

describe("quotedUnlessSecret", () => {
  it.each([
    "lms.example.com",
    "reports-2026-11-30.csv",
    "Roster-Export-2026.xlsx",
    "reports2026@example.com",
    "./out/2026/november",
    "abc123",
    "1234567890123456789",
    "a plain sentence with 2026 in it",
    // Names joined by dashes, UUIDs and paths are names, however long.
    "http://lms-mock-server-1:8080",
    "https://lms.example.com/t/3f2a1b4c-9d8e-4f7a-8b6c-5d4e3f2a1b0c/api-v2",
    "weekly-compliance-2026",
    "/srv/exports/Q4-2026-report-final",
    "C:\\Users\\Margaret2\\exports",
    "Margaret.Thompson1@example..com",
  ])("quotes %s whole", (text) => {
    expect(quotedUnlessSecret(text)).toBe(JSON.stringify(text));
  });

  it.each([
    [KEY, '"sk_l…"'],
    ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.Sfl6KxwRJSMeKKF2QT4f", '"eyJh…"'],
    ["Zm9v/YmFy9kYXpxdXhxdXV4enp6eA==", '"Zm9v/YmFy…"'],
    [`https://lms.example.com/${KEY}/x`, '"https://lms.example.com/sk_l…"'],
    ["tr0ub4dor-3-horse-battery", '"tr0u…"'],
    ["3f9a0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b", '"3f9a…"'],
  ])("cuts %s", (text, shown) => {
    expect(quotedUnlessSecret(text)).toBe(`${shown} (shown in part: it may be a secret)`);
  });
});

describe("a key pasted as the base URL's host", () => {
  it("is cut in the failure to reach it, where it stands lower-cased", async () => {
    const dir = await tempDir("lms-key-as-host-");
    const run = await runInProcess(
      ["extract", "--base-url", `https://${KEY}`, "--db", "lms.duckdb"],
      dir,
      { LMS_API_KEY: "a-key" },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("could not connect to https://sk_l… (shown in part");
    expect(run.stderr.toLowerCase()).not.toContain(KEY.slice(4).toLowerCase());
  });
});
