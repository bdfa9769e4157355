/**
 * The command a run prints for the recipients its mail did not reach, pasted as printed: read by
 * a real POSIX shell (sh) into words, then run (in-process) against real SMTP servers on
 * 127.0.0.1 and the mail dataset (team-list: split by manager_email, with group_id=3 only
 * north.lead@'s share, then the copy to compliance@ cc audit@). It repeats the command's own options (--out,
 * --param, --format, ...), so the files and messages are those of the failed run, and drops an
 * earlier --mail-only; Ctrl-C while mailing names whom nothing reached yet and the same command.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { type CliRun, runCliIn, useMailWorkspace } from "./cli-harness.js";

const ws = useMailWorkspace();

const NORTH = "north.lead@example.com";

/** The one-line error of a run. */
function errorLine(run: CliRun): string {
  return run.stderr.split("\n").find((line) => line.startsWith("lms-export:")) ?? "";
}

/** The command the error line ends with, as the words a POSIX shell makes of it. */
function printedCommand(run: CliRun, lead: string): string[] {
  const line = errorLine(run);
  const at = line.indexOf(lead);
  expect(at, line).toBeGreaterThan(0);
  const command = line.slice(at + lead.length);
  expect(command.startsWith("lms-export report ")).toBe(true);
  const words = execFileSync("sh", ["-c", `printf '%s\\0' ${command.slice("lms-export ".length)}`]);
  return words.toString("utf8").split("\0").slice(0, -1);
}

/** team-list's command line with `--out out`, a parameter and formats, then `flags`. */
function teamList(out: string, ...flags: string[]): string[] {
  const files = ["--format", "csv,xlsx", "--no-neutralise-formulas"];
  const source = ["--catalog", "cat", "--db", "lms.duckdb", "--param", "group_id=3"];
  return ["report", "team-list", ...source, "--out", out, ...files, "--quiet", ...flags];
}

/** `args` run against a fresh server refusing `refuse`; the run and the messages received. */
async function mailed(
  args: readonly string[],
  options: { refuse?: string[]; beforeAnswer?: () => void; signal?: AbortSignal } = {},
) {
  const smtp = await ws.smtp({
    rejectRecipients: options.refuse ?? [],
    ...(options.beforeAnswer ? { beforeAnswer: options.beforeAnswer } : {}),
  });
  const env = { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: "reports@example.com" };
  const run = await runCliIn(ws.dir, args, env, options.signal);
  await smtp.close();
  return { run, received: smtp.received };
}

/** The whole report's CSV of the run into `out`, byte for byte. */
async function wholeCsv(out: string): Promise<Buffer> {
  const name = (await readdir(out)).find((file) => file.endsWith(".csv")) ?? "";
  return readFile(join(out, name));
}

describe("the command that sends again what a run did not get through", () => {
  test("pasted, it writes the same files where the run did and sends the refused manager theirs", async () => {
    // A folder whose name a shell would split: the command must quote it.
    const out = join(ws.dir, "resend 'out'");
    const failed = await mailed(teamList(out, "--mail"), { refuse: [NORTH] });
    expect(failed.run.code).toBe(1);
    const first = await wholeCsv(out);
    const words = printedCommand(failed.run, "to send only those again: ");
    expect(words.slice(0, 2)).toEqual(["report", "team-list"]);
    expect(words).toContain(out);
    expect(words.slice(-3)).toEqual(["--mail", "--mail-only", NORTH]);

    const again = await mailed(words);
    expect(again.run.code, again.run.stderr).toBe(0);
    expect(again.received.map((m) => m.to)).toEqual([[NORTH]]);
    // The same parameter and folder: the whole report is the failed run's, and nothing went to ./out.
    expect((await wholeCsv(out)).equals(first)).toBe(true);
    expect(existsSync(join(ws.dir, "out"))).toBe(false);
    const attached = again.received[0]?.parsed.attachments.map((a) => a.filename).sort();
    expect(attached).toEqual((await readdir(join(out, "split", NORTH))).sort());
  });

  test("an earlier --mail-only is not repeated: only the address not reached is named", async () => {
    const out = join(ws.dir, "only-out");
    const failed = await mailed(
      teamList(out, "--mail", "--mail-only", `${NORTH},compliance@example.com`),
      {
        refuse: [NORTH],
      },
    );
    expect(failed.run.code).toBe(1);
    const words = printedCommand(failed.run, "to send only those again: ");
    expect(words.filter((w) => w === "--mail-only")).toHaveLength(1);
    expect(words.slice(-2)).toEqual(["--mail-only", NORTH]);
  });

  test("Ctrl-C while mailing names whom nothing reached yet, and the command that sends theirs", async () => {
    const out = join(ws.dir, "stopped-out");
    const controller = new AbortController();
    // Stopped once the first message (north.lead@'s share) has arrived: it is still delivered.
    const stopped = await mailed(teamList(out, "--mail"), {
      beforeAnswer: () => controller.abort(),
      signal: controller.signal,
    });
    expect(stopped.run.code).toBe(130);
    expect(stopped.received.map((m) => m.to)).toEqual([[NORTH]]);
    // With group_id=3 only north.lead@ has rows: the copy of the rest is all that is left.
    const rest = ["compliance@example.com", "audit@example.com"];
    expect(errorLine(stopped.run)).toContain(
      `mail interrupted; no further mail was sent (1 message sent before); not reached: ${rest.join(", ")}; to send them: `,
    );
    const words = printedCommand(stopped.run, "; to send them: ");
    expect(words.slice(-3)).toEqual(["--mail", "--mail-only", rest.join(",")]);

    const again = await mailed(words);
    expect(again.run.code, again.run.stderr).toBe(0);
    expect(again.received.map((m) => m.to)).toEqual([rest]);
  });
});
