/**
 * A manager all of whose people the roster marks as gone gets no message of a split report: the
 * run names them in a warning, not only in the count of people left out. The mail dataset's
 * North lead manages 103 and 104, the Sales lead 102 and 104; with 103 and 104 marked as leavers,
 * the North lead has no one left and the Sales lead keeps 102. The shipped team-compliance is
 * mailed split per manager to a real SMTP server on 127.0.0.1, in-process.
 */
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { expect, test } from "vitest";
import { GONE_MANAGERS_LISTED } from "../../src/mail/gone-managers.js";
import { someAddresses } from "../../src/mail/some-addresses.js";
import { runCliIn, useMailWorkspace } from "./cli-harness.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const ws = useMailWorkspace();

/** Sets the roster status of `users` in the workspace's database. */
async function markGone(users: readonly number[], status: string): Promise<void> {
  const instance = await DuckDBInstance.create(join(ws.dir, "lms.duckdb"));
  const connection = await instance.connect();
  try {
    await connection.run(
      `UPDATE "user" SET user_status = '${status}' WHERE user_id IN (${users.join(", ")})`,
    );
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** team-compliance mailed split per manager to a fresh server, its output in `outName`. */
async function mailTeamCompliance(outName: string) {
  const smtp = await ws.smtp();
  const run = await runCliIn(
    ws.dir,
    teamComplianceMail("--log-format", "json"),
    mailEnv(smtp.url, join(ws.dir, outName)),
  );
  expect(run.code, run.stderr).toBe(0);
  return { run, recipients: smtp.received.map((m) => m.to.join()).sort() };
}

test("a manager whose people are all gone is named in a warning; the others get theirs", async () => {
  await writeTeamCatalog(ws.dir, ["csv"]);
  const before = await mailTeamCompliance("out-before");
  expect(before.run.stderr).not.toContain("no message of team-compliance");

  await markGone([103, 104], "leaver");
  const { run, recipients } = await mailTeamCompliance("out-gone");
  expect(recipients).toEqual(["compliance@example.com", "sales.lead@example.com"]);
  const warning = run.stderr
    .split("\n")
    .filter((line) => line.includes("no message of team-compliance"))
    .map(
      (line) =>
        JSON.parse(line) as { level: string; msg?: string; message?: string; managers: string[] },
    );
  expect(warning).toHaveLength(1);
  expect(warning[0]?.level).toBe("warn");
  expect(JSON.stringify(warning[0])).toContain(
    "1 manager gets no message of team-compliance: every person of theirs is left out as gone (excluded_statuses): north.lead@example.com",
  );
  expect(warning[0]?.managers).toEqual(["north.lead@example.com"]);
}, 60_000);

test("a manager the roster marks as gone behind a tab is not named: they left themselves", async () => {
  // 103 and 104 are leavers (above); the North lead left too, written with a trailing tab, which
  // the queries' excluded_statuses ignore as white space: their team is gone with them.
  await markGone([103, 104], "leaver");
  await markGone([202], "Leaver\t");
  const { run, recipients } = await mailTeamCompliance("out-lead-gone");
  expect(recipients).toEqual(["compliance@example.com", "sales.lead@example.com"]);
  expect(run.stderr).not.toContain("no message of team-compliance");
}, 60_000);

test("the warning names the first five managers and counts the rest", () => {
  const managers = ["a", "b", "c", "d", "e", "f", "g"].map((m) => `${m}@example.com`);
  const someManagers = (listed: readonly string[]) => someAddresses(listed, GONE_MANAGERS_LISTED);
  expect(someManagers(managers)).toBe(
    "a@example.com, b@example.com, c@example.com, d@example.com, e@example.com and 2 more",
  );
  expect(someManagers(managers.slice(0, 2))).toBe("a@example.com, b@example.com");
});
