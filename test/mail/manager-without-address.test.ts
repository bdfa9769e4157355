/**
 * A manager column naming a manager by id whose roster row has no e-mail: team-compliance, split
 * per manager, on the mail dataset (test/mail/mail-dataset.ts: user 203 has no e-mail), against a
 * real SMTP server on 127.0.0.1. The warning names the value as a person of the roster without an
 * e-mail, apart from the values that are simply not addresses, and the rows go to the report's
 * recipients.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";
import { csvPeople } from "./csv-people.js";
import { setManagerCells } from "./manager-cells.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const ws = useMailWorkspace();

test("a manager named by the id of someone without an e-mail is named as such", async () => {
  await writeTeamCatalog(ws.dir, ["csv"]);
  await setManagerCells(ws.dir, { 103: "203", 104: "front desk" });
  const out = join(ws.dir, "out");
  const { run, received } = await ws.mailed(teamComplianceMail(), (url) => mailEnv(url, out));
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stderr.split("\n");
  const people = lines.filter((line) => line.includes("people of the roster who have no e-mail"));
  expect(people).toHaveLength(1);
  expect(people[0]).toContain('"203"');
  expect(people[0]).toContain("give them an e-mail in the roster");
  const others = lines.filter((line) => line.includes("values that are not e-mail addresses"));
  expect(others).toHaveLength(1);
  expect(others[0]).toContain('"front desk"');
  expect(others[0]).not.toContain('"203"');
  // Both people's rows went to the report's recipients, in the copy of the rows without a manager.
  const copy = received.find((m) => m.to.join() === "compliance@example.com");
  const path = join(ws.dir, "unassigned.csv");
  await writeFile(path, copy?.parsed.attachments[0]?.content ?? "");
  const users = new Set((await csvPeople(path)).map((row) => row.user));
  expect(users.has(103) && users.has(104)).toBe(true);
});
