/**
 * The CLI as a real child process: `report ... --mail-to` against a DuckDB file and an SMTP
 * server on 127.0.0.1, the settings from the environment as a scheduled job would have them.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runCli } from "../helpers/spawn-cli.js";
import { mailWorkspace } from "./cli-harness.js";
import { type SmtpFixture, startSmtp } from "./smtp-fixture.js";

let dir: string;
let remove: () => Promise<void>;
let smtp: SmtpFixture;

beforeAll(async () => {
  ({ dir, remove } = await mailWorkspace());
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
  await remove();
});

test("report --mail-to in a child process sends the written files", async () => {
  const result = await runCli(
    [
      "report",
      "team-list",
      "--catalog",
      "cat",
      "--db",
      "lms.duckdb",
      "--out",
      "out",
      "--mail-to",
      "ops@example.com",
    ],
    {
      cwd: dir,
      env: { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: "reports@example.com", LMS_LOG_FORMAT: "json" },
    },
  );
  expect(result.stderr).not.toContain('"level":"error"');
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("mail: 1 message sent");
  await smtp.close();
  expect(smtp.received).toHaveLength(1);
  const files = (await readdir(join(dir, "out"))).sort();
  const attachments = smtp.received[0]?.parsed.attachments ?? [];
  expect(attachments.map((a) => a.filename).sort()).toEqual(files);
  for (const attachment of attachments) {
    expect(
      attachment.content.equals(await readFile(join(dir, "out", attachment.filename as string))),
    ).toBe(true);
  }
});
