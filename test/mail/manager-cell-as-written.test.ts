/**
 * A manager cell that is no address ("Front Desk", an id that names no one) stays as the roster
 * writes it (README, Compliance rules): team-compliance split per manager, on the mail dataset
 * (test/mail/mail-dataset.ts), against a real SMTP server on 127.0.0.1. The split's warning and
 * the copy of the rows without a manager, mailed to the report's recipients, show the roster's
 * own text, which the person fixing the roster searches for, while an address in capitals is
 * still one manager's, in lower case.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";
import { csvPeople } from "./csv-people.js";
import { setManagerCells } from "./manager-cells.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const ws = useMailWorkspace();

test("a manager cell that is no address reaches the warning and the copy as written", async () => {
  await setManagerCells(ws.dir, { 103: "Front Desk", 104: "North.Lead@Example.com" });
  await writeTeamCatalog(ws.dir, ["csv"]);
  const mailed = await ws.mailed(teamComplianceMail(), (url) => mailEnv(url, join(ws.dir, "out")));
  const { run, received } = mailed;
  expect(run.code, run.stderr).toBe(0);
  const warning = run.stderr.split("\n").filter((line) => line.includes("not e-mail addresses"));
  expect(warning).toHaveLength(1);
  expect(warning[0]).toContain('"Front Desk"');
  const rows = async (to: string) => {
    const path = join(ws.dir, `${to}.csv`);
    await writeFile(
      path,
      received.find((m) => m.to.join() === to)?.parsed.attachments[0]?.content ?? "",
    );
    return csvPeople(path);
  };
  const copy = await rows("compliance@example.com");
  expect(new Set(copy.filter((row) => row.user === 103).map((row) => row.manager))).toEqual(
    new Set(["Front Desk"]),
  );
  const north = await rows("north.lead@example.com");
  expect(new Set(north.map((row) => row.manager))).toEqual(new Set(["north.lead@example.com"]));
  expect(north.some((row) => row.user === 104)).toBe(true);
});
