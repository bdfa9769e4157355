/**
 * Sending again only what a split run could not deliver, against real SMTP servers on 127.0.0.1
 * and the mail dataset (team-list: split by manager_email, to compliance@, cc audit@). A refused
 * manager makes the run fail naming `--mail-only` with that address, and the copy to the report's
 * own recipients says whose rows did not get through and where they are; `--mail --mail-only`
 * then sends that manager their own share alone, and an address no message goes to sends nothing
 * (a manager whose rows left the data since the failed run: the refusal says to leave them out).
 */
import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, test } from "vitest";
import {
  type CliRun,
  mailWorkspace,
  reportArgs,
  runCliIn,
  useMailWorkspace,
} from "./cli-harness.js";
import { csvPeople } from "./csv-people.js";
import { MANAGERS } from "./mail-dataset.js";

const ws = useMailWorkspace();

const NORTH = "north.lead@example.com";
const SALES = "sales.lead@example.com";

/** team-list mailed into `out` with `flags`; the server refuses `refuse`. */
async function mailTeamList(out: string, flags: string[], refuse: string[] = []) {
  const smtp = await ws.smtp({ rejectRecipients: refuse });
  const run = await runCliIn(ws.dir, reportArgs("team-list", "--out", out, ...flags), {
    LMS_SMTP_URL: smtp.url,
    LMS_MAIL_FROM: "reports@example.com",
  });
  await smtp.close();
  return { run, received: smtp.received };
}

/** The one-line error of a run (its last line not from the JSON log). */
function errorLine(run: CliRun): string {
  return run.stderr.split("\n").filter((line) => line.startsWith("lms-export:"))[0] ?? "";
}

describe("--mail-only", () => {
  test("a refused manager: exit 1 naming the command that sends them alone; the copy says so", async () => {
    const out = join(ws.dir, "refused-out");
    const { run, received } = await mailTeamList(out, ["--mail"], [NORTH]);
    expect(run.code).toBe(1);
    // The command's own options repeated, then the address not reached.
    expect(errorLine(run)).toContain(
      `; to send only those again: lms-export report team-list --db lms.duckdb --log-format json --out ${out} --catalog cat --mail --mail-only ${NORTH}`,
    );
    expect(received.map((m) => m.to.join()).sort()).toEqual([
      "compliance@example.com,audit@example.com",
      SALES,
    ]);
    // The copy to the report's own recipients goes after the shares, and names the one refused.
    const copy = received.find((m) => m.to.includes("compliance@example.com"));
    const folder = join(out, "split", NORTH);
    expect(copy?.parsed.text).toContain(`except those of ${NORTH}`);
    expect(copy?.parsed.text).toContain(folder);
    expect(copy?.parsed.text).not.toContain("each row with an address went to that address");
    expect((await readdir(folder)).some((f) => f.endsWith(".csv"))).toBe(true);
  });

  test("--mail --mail-only ADDR sends that manager their own share, and nothing else", async () => {
    const out = join(ws.dir, "resend-out");
    await mailTeamList(out, ["--mail"], [NORTH]);
    const folder = join(out, "split", NORTH);
    const csvName = (await readdir(folder)).find((f) => f.endsWith(".csv")) ?? "";
    const firstRun = await readFile(join(folder, csvName));

    // Any case: the split matches addresses whatever their case.
    const { run, received } = await mailTeamList(out, [
      "--mail",
      "--mail-only",
      NORTH.toUpperCase(),
    ]);
    expect(run.stderr).not.toContain('"level":"error"');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("mail: 1 message sent");
    expect(received).toHaveLength(1);
    expect(received[0]?.to).toEqual([NORTH]);
    const csv = received[0]?.parsed.attachments.find((a) => a.filename === csvName);
    // The share the full run built: byte for byte the file that run left for this manager.
    expect(csv?.content.equals(firstRun)).toBe(true);
    const path = join(ws.dir, "resent.csv");
    await writeFile(path, csv?.content ?? "");
    const rows = await csvPeople(path);
    expect(new Set(rows.map((r) => r.user))).toEqual(new Set(MANAGERS[NORTH]));
    expect(new Set(rows.map((r) => r.manager))).toEqual(new Set([NORTH]));
  });

  test("naming the report's own recipient sends their copy to them alone", async () => {
    const out = join(ws.dir, "own-out");
    const { run, received } = await mailTeamList(out, ["--mail", "--mail-only=audit@example.com"]);
    expect(run.code).toBe(0);
    expect(received).toHaveLength(1);
    // The copy as built (To: compliance@, Cc: audit@), handed over for audit@ only.
    expect(received[0]?.to).toEqual(["audit@example.com"]);
    expect(received[0]?.parsed.text).toContain("Only the rows whose");
    // Only the share sent is written again.
    expect(existsSync(join(out, "split", NORTH))).toBe(false);
  });

  test("an address no message goes to: exit 2 naming it, nothing sent, nothing private said", async () => {
    const out = join(ws.dir, "unknown-out");
    const { run, received } = await mailTeamList(out, [
      "--mail",
      "--mail-only",
      `${NORTH},nobody@example.com`,
    ]);
    expect(run.code).toBe(2);
    const line = errorLine(run);
    expect(line).toContain("--mail-only: no message of this run goes to nobody@example.com");
    expect(line).not.toContain(SALES);
    expect(line).not.toContain(NORTH);
    expect(received).toHaveLength(0);
  });

  test("a manager whose rows left the data after the failed run: the refusal says to leave them out", async () => {
    const moved = await mailWorkspace();
    try {
      const smtp = await ws.smtp({ rejectRecipients: [NORTH] });
      const env = { LMS_SMTP_URL: smtp.url, LMS_MAIL_FROM: "reports@example.com" };
      const failed = await runCliIn(moved.dir, reportArgs("team-list", "--mail"), env);
      expect(failed.code).toBe(1);
      expect(errorLine(failed)).toContain(`--mail-only ${NORTH}`);
      // The roster changed: North's admin is one no more, so no row names north.lead@ now.
      const instance = await DuckDBInstance.create(join(moved.dir, "lms.duckdb"));
      const connection = await instance.connect();
      await connection.run(
        "UPDATE user_grp SET user_grp_group_admin = 0 WHERE user_grp_user_id = 202",
      );
      connection.closeSync();
      instance.closeSync();
      const again = await runCliIn(
        moved.dir,
        reportArgs("team-list", "--mail", "--mail-only", NORTH),
        env,
      );
      expect(again.code).toBe(2);
      expect(errorLine(again)).toContain(
        "an address whose rows have left the data since (a roster import or an extract in between) has nothing to be sent: leave it out",
      );
      await smtp.close();
      expect(smtp.received.map((m) => m.to.join())).not.toContain(NORTH);
    } finally {
      await moved.remove();
    }
  });

  test.each([
    [["--mail-only", NORTH], "--mail-only needs --mail"],
    [
      ["--mail", "--mail-to", NORTH, "--mail-only", NORTH],
      "--mail-only does not go with --mail-to",
    ],
    [["--mail", "--mail-only", "north.lead"], '--mail-only: "north.lead" is not an e-mail address'],
  ])("%j is refused before anything runs", async (flags, expected) => {
    const out = join(ws.dir, "bad-flags-out");
    const { run, received } = await mailTeamList(out, flags);
    expect(run.code).toBe(2);
    expect(errorLine(run)).toContain(expected);
    expect(received).toHaveLength(0);
    expect(existsSync(out)).toBe(false);
  });
});
