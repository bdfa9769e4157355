/**
 * The shipped team-compliance report mailed split per manager, as README shows it: the shipped
 * definition copied into a catalog with a mail block. A real SMTP server on 127.0.0.1 and the
 * mail dataset (test/mail/mail-dataset.ts: admins of Sales and North with e-mails, of Support
 * without). Each manager gets only their people's compliance rows, in the body and in the CSV
 * attachment (read back by DuckDB's CSV reader); everyone else's rows go to the report's `to`.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { runCliIn, useMailWorkspace } from "./cli-harness.js";
import { csvPeople } from "./csv-people.js";
import { MANAGERS } from "./mail-dataset.js";
import { mailEnv, teamComplianceMail, writeTeamCatalog } from "./team-catalog.js";

const ws = useMailWorkspace();

describe("team-compliance split per manager", () => {
  test("each manager gets their people's rows; people without a manager go to `to`", async () => {
    await writeTeamCatalog(ws.dir, ["xlsx", "csv"]);
    const smtp = await ws.smtp();
    const out = join(ws.dir, "team-out");
    const run = await runCliIn(ws.dir, teamComplianceMail(), mailEnv(smtp.url, out));
    expect(run.stderr).not.toContain('"level":"error"');
    expect(run.code).toBe(0);
    await smtp.close();
    expect(smtp.received.map((m) => m.to.join()).sort()).toEqual([
      "compliance@example.com",
      "north.lead@example.com",
      "sales.lead@example.com",
    ]);
    for (const [manager, users] of Object.entries(MANAGERS)) {
      const message = smtp.received.find((m) => m.to.join() === manager);
      const csv = message?.parsed.attachments[0];
      const path = join(ws.dir, `${manager}.csv`);
      await writeFile(path, csv?.content ?? "");
      const rows = await csvPeople(path);
      expect(new Set(rows.map((r) => r.user))).toEqual(new Set(users));
      expect(new Set(rows.map((r) => r.manager))).toEqual(new Set([manager]));
      // Their people's every required product: 102 and 103 hold access to two, 104 to one.
      expect(rows).toHaveLength(3);
      const bodyIds = [
        ...String(message?.parsed.html).matchAll(/<tr(?: [^>]*)?><td[^>]*>(\d+)<\/td>/g),
      ];
      expect(new Set(bodyIds.map((m) => Number(m[1])))).toEqual(new Set(users));
    }
    const rest = smtp.received.find((m) => m.to.join() === "compliance@example.com");
    const restPath = join(ws.dir, "rest.csv");
    await writeFile(restPath, rest?.parsed.attachments[0]?.content ?? "");
    const restRows = await csvPeople(restPath);
    expect([...new Set(restRows.map((r) => r.user))].sort()).toEqual([101, 105, 106, 107, 108]);
    expect(restRows.every((r) => r.manager === null)).toBe(true);
  });
});
