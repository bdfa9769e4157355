/**
 * The shipped team-compliance report mailed split per manager, with managers whose roster
 * addresses hold the two letters DuckDB's lower() and toLowerCase() lower-case apart: "İ" (to "i",
 * against "i" and a combining dot) and a word's last "Σ" (to "σ", against "ς"). Written in capitals
 * for some people and in lower case for others, each is one manager with one message, to the
 * address the split keys (README, E-mail: `İlker@example.com` is `i̇lker@example.com`), never to
 * ilker@example.com, another mailbox. A real SMTP server on 127.0.0.1 offering SMTPUTF8, the
 * roster imported by the CLI into the mail dataset's DuckDB file.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runCliIn, useMailWorkspace } from "./cli-harness.js";
import { csvPeople } from "./csv-people.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const ws = useMailWorkspace();

/** "İ" lower-cased as Unicode does it: "i" and a combining dot above. */
const ILKER = "i\u0307lker@example.com";
const NIKOS = "νίκος@example.gr";

const ROSTER = [
  "user_id,email,firstname,lastname,manager_email",
  "101,a@example.com,Al,Ash,ΝΊΚΟΣ@example.gr",
  `102,b@example.com,Bea,Ng,${NIKOS}`,
  "103,c@example.com,Cy,Ode,\u0130lker@example.com",
  `104,d@example.com,Dee,Park,${ILKER}`,
  "",
].join("\n");

test("a manager written with İ or a last Σ, in capitals or not, gets one message", async () => {
  await writeFile(join(ws.dir, "people.csv"), ROSTER);
  const imported = await runCliIn(
    ws.dir,
    ["roster", "import", "people.csv", "--db", "lms.duckdb"],
    {},
  );
  expect(imported.code, imported.stderr).toBe(0);
  await writeTeamCatalog(ws.dir, ["csv"]);
  const out = join(ws.dir, "team-out");
  const { run, received } = await ws.mailed(teamComplianceMail(), (url) => mailEnv(url, out));
  expect(run.code, run.stderr).toBe(0);
  expect(received.map((m) => m.to.join()).sort()).toEqual(
    ["compliance@example.com", ILKER, NIKOS].sort(),
  );
  const people = async (to: string) => {
    const path = join(ws.dir, `share-${received.findIndex((m) => m.to.join() === to)}.csv`);
    await writeFile(
      path,
      received.find((m) => m.to.join() === to)?.parsed.attachments[0]?.content ?? "",
    );
    return [...new Set((await csvPeople(path)).map((row) => row.user))].sort();
  };
  expect(await people(ILKER)).toEqual([103, 104]);
  expect(await people(NIKOS)).toEqual([101, 102]);
});
