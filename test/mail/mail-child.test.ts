/**
 * The CLI as a real child process: `report ... --mail-to` against a DuckDB file and an SMTP
 * server on 127.0.0.1, the settings from the environment as a scheduled job would have them; and
 * Ctrl-C (SIGINT) while it mails, which the process turns into exit 130 and the command that
 * sends what was not.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { collect, runCli, spawnCli } from "../helpers/spawn-cli.js";
import { stderrText } from "../helpers/stderr-text.js";
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

/** team-list written to `out` and mailed with `flags`, through the server at `url`, as a job would. */
function teamList(url: string, out: string, ...flags: string[]) {
  const args = ["report", "team-list", "--catalog", "cat", "--db", "lms.duckdb", "--out", out];
  const env = { LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com", LMS_LOG_FORMAT: "json" };
  return { args: [...args, ...flags], options: { cwd: dir, env } };
}

test("report --mail-to in a child process sends the written files", async () => {
  const run = teamList(smtp.url, "out", "--mail-to", "ops@example.com");
  const result = await runCli(run.args, run.options);
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

test("SIGINT while mailing: the message in flight is delivered, no other, exit 130 and the resend command", async () => {
  const split = await startSmtp({ beforeAnswer: () => child.kill("SIGINT") });
  const run = teamList(split.url, "out-sigint", "--mail");
  // One connection: a further one could hand over the next message before the signal lands.
  const env = { ...run.options.env, LMS_SMTP_CONNECTIONS: "1" };
  const child = spawnCli(run.args, { ...run.options, env });
  const result = await collect(child);
  await split.close();
  expect(result.code, result.stderr).toBe(130);
  // team-list makes three messages (two managers' shares, then the rest): only the first went.
  expect(split.received).toHaveLength(1);
  const line =
    stderrText(result.stderr)
      .split("\n")
      .find((l) => l.startsWith("lms-export:")) ?? "";
  expect(line).toMatch(
    /^lms-export: mail interrupted; no further mail was sent \(1 message sent before\); not reached: .+; to send them: lms-export report team-list .*--mail-only /,
  );
  expect(line).not.toContain(split.received[0]?.to[0] ?? "none");
});
