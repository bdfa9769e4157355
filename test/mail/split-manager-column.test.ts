/**
 * The manager column of a report mailed split per manager: team-compliance (the shipped definition
 * in a catalog with a mail block) on the mail dataset, whose roster has no manager column at first
 * (test/mail/mail-dataset.ts). A given manager_column that names no roster column is refused before
 * a file is written or a message sent, since the split would mail everyone's rows to group admins;
 * one naming the roster's column in another case is taken as it, in every share.
 */
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { beforeAll, describe, expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";
import { csvPeople } from "./csv-people.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const ws = useMailWorkspace();

beforeAll(async () => {
  await writeTeamCatalog(ws.dir, ["csv"]);
});

/** `report team-compliance --mail` with `param`, into `out`, against a fresh SMTP server. */
function mailed(param: string, out: string) {
  return ws.mailed(teamComplianceMail("--param", param), (url) => mailEnv(url, out));
}

describe("a split mail's manager column", () => {
  test("one the roster has no column for is refused before anything is written or sent", async () => {
    const out = join(ws.dir, "refused-out");
    const { run, received } = await mailed("manager_column=Manager_Email", out);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "report team-compliance is not mailed: manager_column is Manager_Email, but the roster has no column Manager_Email (query compliance)",
    );
    expect(run.stderr).toContain("leave manager_column out to mail the admins");
    expect(received).toEqual([]);
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });

  test("one naming the roster's column in another case mails the roster's managers", async () => {
    const instance = await DuckDBInstance.create(join(ws.dir, "lms.duckdb"));
    const connection = await instance.connect();
    await connection.run(`ALTER TABLE "user" ADD COLUMN manager_email VARCHAR`);
    await connection.run(
      `UPDATE "user" SET manager_email = 'boss@example.com' WHERE user_id = 103`,
    );
    connection.closeSync();
    instance.closeSync();
    const out = join(ws.dir, "cased-out");
    const { run, received } = await mailed("manager_column=Manager_Email", out);
    expect(run.code).toBe(0);
    const boss = received.find((m) => m.to.join() === "boss@example.com");
    const path = join(ws.dir, "boss.csv");
    await writeFile(path, boss?.parsed.attachments[0]?.content ?? "");
    const rows = await csvPeople(path);
    expect(new Set(rows.map((r) => r.user))).toEqual(new Set([103]));
    // 103 is in North: without the roster's column, its rows went to North's admin.
    const north = received.find((m) => m.to.join() === "north.lead@example.com");
    const northPath = join(ws.dir, "north.csv");
    await writeFile(northPath, north?.parsed.attachments[0]?.content ?? "");
    expect((await csvPeople(northPath)).map((r) => r.user)).not.toContain(103);
  });
});
