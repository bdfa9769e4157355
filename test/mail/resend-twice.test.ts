/**
 * An address that gets two messages of one split report: the report's own recipient
 * (compliance@, `to` of team-list, cc audit@) is also a manager in the data (the admin of North
 * has that e-mail, in another case), so it gets its own share and the copy of the rows without a
 * manager. When only one of the two is not delivered (refused by a real SMTP server on 127.0.0.1,
 * or not sent yet at Ctrl-C), the command the run prints, read by a real shell and run, sends that
 * one alone: never the other, delivered, again.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type CliRun, mailWorkspace, runCliIn } from "./cli-harness.js";
import { type Received, startSmtp } from "./smtp-fixture.js";

const OWN = "compliance@example.com";
const AUDIT = "audit@example.com";
const SALES = "sales.lead@example.com";

let dir = "";
let remove: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ dir, remove } = await mailWorkspace());
  const db = await DuckDBInstance.create(join(dir, "lms.duckdb"));
  const connection = await db.connect();
  // North's admin (202) is the report's own recipient: North's people are compliance@'s share.
  await connection.run(`UPDATE "user" SET email = 'Compliance@Example.com' WHERE user_id = 202`);
  connection.closeSync();
  db.closeSync();
});

afterAll(async () => {
  await remove?.();
});

/** What a message of team-list is: compliance@'s share, sales.lead@'s, or the copy of the rest. */
function kind(message: Received): string {
  const text = message.parsed.text ?? "";
  if (text.includes("Only the rows whose")) return `copy to ${message.to.join(",")}`;
  return `share to ${message.to.join(",")}`;
}

/** `args` run against a fresh server that refuses the messages `refuse` says yes to. */
async function mailed(
  args: readonly string[],
  options: {
    refuse?: (message: Received) => boolean;
    beforeAnswer?: () => void;
    signal?: AbortSignal;
  } = {},
): Promise<{ run: CliRun; received: string[] }> {
  const smtp = await startSmtp({
    ...(options.refuse ? { refuseMessage: options.refuse } : {}),
    ...(options.beforeAnswer ? { beforeAnswer: options.beforeAnswer } : {}),
  });
  const env = { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: "reports@example.com" };
  try {
    const run = await runCliIn(dir, args, env, options.signal);
    return { run, received: smtp.received.map(kind) };
  } finally {
    await smtp.close();
  }
}

/** The command the run's error line ends with (after `lead`), as a POSIX shell splits it. */
function printedCommand(run: CliRun, lead: string): string[] {
  const line = run.stderr.split("\n").find((l) => l.startsWith("lms-export:")) ?? "";
  const at = line.indexOf(lead);
  expect(at, line).toBeGreaterThan(0);
  const command = line.slice(at + lead.length);
  const words = execFileSync("sh", ["-c", `printf '%s\\0' ${command.slice("lms-export ".length)}`]);
  return words.toString("utf8").split("\0").slice(0, -1);
}

function teamList(out: string): string[] {
  const source = ["--catalog", "cat", "--db", "lms.duckdb", "--out", join(dir, out)];
  return ["report", "team-list", ...source, "--quiet", "--mail"];
}

const SHARE = `share to ${OWN}`;
const COPY = `copy to ${OWN},${AUDIT}`;

describe("an address with its own share and the copy of the rest", () => {
  test("the copy refused, the share delivered: the command sends the copy alone", async () => {
    const failed = await mailed(teamList("copy-out"), { refuse: (m) => m.to.includes(AUDIT) });
    expect(failed.run.code).toBe(1);
    expect(failed.received).toEqual([SHARE, `share to ${SALES}`]);
    const words = printedCommand(failed.run, "to send only those again: ");
    expect(words.slice(-2)).toEqual(["--mail-only", `${OWN}:unassigned,${AUDIT}`]);

    const again = await mailed(words);
    expect(again.run.code, again.run.stderr).toBe(0);
    expect(again.received).toEqual([COPY]);
  });

  test("the share refused, the copy delivered: the command sends the share alone", async () => {
    const failed = await mailed(teamList("share-out"), { refuse: (m) => m.to.join() === OWN });
    expect(failed.run.code).toBe(1);
    expect(failed.received).toEqual([`share to ${SALES}`, COPY]);
    const words = printedCommand(failed.run, "to send only those again: ");
    expect(words.slice(-2)).toEqual(["--mail-only", `${OWN}:share`]);

    const again = await mailed(words);
    expect(again.run.code, again.run.stderr).toBe(0);
    expect(again.received).toEqual([SHARE]);
  });

  test("Ctrl-C once the share has arrived: the command sends the rest, not the share", async () => {
    const controller = new AbortController();
    const stopped = await mailed(teamList("stopped-out"), {
      beforeAnswer: () => controller.abort(),
      signal: controller.signal,
    });
    expect(stopped.run.code).toBe(130);
    expect(stopped.received).toEqual([SHARE]);
    const words = printedCommand(stopped.run, "; to send them: ");
    expect(words.slice(-2)).toEqual(["--mail-only", `${SALES},${OWN}:unassigned,${AUDIT}`]);

    const again = await mailed(words);
    expect(again.run.code, again.run.stderr).toBe(0);
    expect(again.received).toEqual([`share to ${SALES}`, COPY]);
  });

  test.each([
    [`${OWN}:whole`, `--mail-only: "${OWN}:whole" names no part of a message`],
    [`${SALES}:unassigned`, `no message of this run goes to ${SALES}:unassigned`],
  ])("--mail-only %s is refused, nothing sent", async (value, expected) => {
    const refused = await mailed([...teamList("bad-out"), `--mail-only=${value}`]);
    expect(refused.run.code).toBe(2);
    expect(refused.run.stderr).toContain(expected);
    expect(refused.received).toEqual([]);
  });
});
