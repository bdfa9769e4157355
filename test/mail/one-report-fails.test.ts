/**
 * One report of a command failing while it runs costs only its own files: the others are
 * written, listed and mailed, and the command then fails naming it (exit 1). A real SMTP server
 * on 127.0.0.1 and the mail dataset's catalog, plus a query that fails part-way through its rows.
 */
import { existsSync } from "node:fs";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { reportArgs, runCliIn, useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const FAILING_SQL = `-- title: Fails part-way
-- description: Its rows stop with an error after the tenth.
SELECT CASE WHEN i > 10 THEN error('disk on fire') ELSE i END AS n FROM range(100000) AS t(i)
`;

test("a failing report leaves the others written and mailed, and the command exits 1 naming it", async () => {
  await writeFile(join(ws.dir, "cat", "queries", "failing.sql"), FAILING_SQL);
  const smtp = await ws.smtp();
  const out = join(ws.dir, "fail-out");
  const run = await runCliIn(ws.dir, reportArgs("failing", "team-list", "--mail", "--out", out), {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: "reports@example.com",
    LMS_MAIL_DEFAULT_TO: "ops@example.com",
  });
  expect(run.code, run.stderr).toBe(1);
  const last = run.stderr.trimEnd().split("\n").at(-1) ?? "";
  expect(last).toMatch(/^lms-export: report failing: query failed: .*disk on fire/);
  expect(last).toContain("the other report was written");
  expect(run.stdout).toContain("report team-list:");
  expect(run.stdout).toContain("mail: 3 messages sent");
  await smtp.close();
  expect(smtp.received).toHaveLength(3);
  const files = await readdir(out);
  expect(files.some((f) => f.startsWith("team-list-") && f.endsWith(".csv"))).toBe(true);
  expect(files.filter((f) => f.startsWith("failing"))).toEqual([]);
  expect(files.filter((f) => f.endsWith(".tmp") || f.startsWith("."))).toEqual([]);
  expect(existsSync(join(out, "split"))).toBe(true);
});
