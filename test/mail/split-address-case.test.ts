/**
 * A roster names one manager in several spellings ("Boss@example.com", " boss@example.com",
 * "BOSS@Example.COM"): team-compliance mailed split per manager (the shipped definition with a
 * mail block, test/mail/team-catalog.ts) on the mail dataset (test/mail/mail-dataset.ts) sends
 * that manager one message holding all their people, not one per spelling. Addresses are compared
 * in lower case: the local part of an address is case-sensitive in theory, but no mail system in
 * use relies on it, and a split by spelling would hand one manager's people out in pieces.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeAll, expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";
import { csvPeople } from "./csv-people.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const ws = useMailWorkspace();

beforeAll(async () => {
  await writeTeamCatalog(ws.dir, ["csv"]);
  const instance = await DuckDBInstance.create(join(ws.dir, "lms.duckdb"));
  const connection = await instance.connect();
  await connection.run(`ALTER TABLE "user" ADD COLUMN manager_email VARCHAR`);
  await connection.run(`UPDATE "user" SET manager_email = CASE user_id
      WHEN 102 THEN 'Boss@example.com' WHEN 103 THEN ' boss@example.com'
      WHEN 104 THEN 'BOSS@Example.COM' END`);
  connection.closeSync();
  instance.closeSync();
});

test("one manager spelled in several cases gets one message with all their people", async () => {
  const { run, received } = await ws.mailed(teamComplianceMail(), (url) =>
    mailEnv(url, join(ws.dir, "out")),
  );
  expect(run.code, run.stderr).toBe(0);
  const bosses = received.filter((m) => m.to.join().toLowerCase() === "boss@example.com");
  expect(bosses.map((m) => m.to.join())).toEqual(["boss@example.com"]);
  const path = join(ws.dir, "boss.csv");
  await writeFile(path, bosses[0]?.parsed.attachments[0]?.content ?? "");
  const rows = await csvPeople(path);
  expect(new Set(rows.map((r) => r.user))).toEqual(new Set([102, 103, 104]));
  expect(new Set(rows.map((r) => r.manager))).toEqual(new Set(["boss@example.com"]));
});
