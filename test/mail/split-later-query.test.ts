/**
 * A split report whose later query names an address its first query does not: that manager gets
 * a message of their own with their rows, and the message of the rows without an address holds
 * only those. Against a real SMTP server on 127.0.0.1 and the mail dataset (test/mail/mail-dataset.ts).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { useMailWorkspace } from "./cli-harness.js";
import { csvPeople } from "./csv-people.js";
import { MANAGERS, UNASSIGNED } from "./mail-dataset.js";

const ws = useMailWorkspace();

/** The first query names only the Sales lead; group-managers names both leads. */
const SALES_ONLY_SQL = `-- title: Sales team
-- description: The Sales lead's people.
SELECT user_id, manager_email FROM (
  SELECT m.user_grp_user_id AS user_id, nullif(trim(u.email), '') AS manager_email
  FROM user_grp m
  JOIN user_grp a ON a.user_grp_grp_id = m.user_grp_grp_id AND a.user_grp_group_admin = 1
  LEFT JOIN "user" u ON u.user_id = a.user_grp_user_id
  WHERE coalesce(m.user_grp_group_admin, 0) = 0
) WHERE lower(manager_email) = 'sales.lead@example.com'
ORDER BY user_id
`;

async function writeCatalog(dir: string): Promise<void> {
  await mkdir(join(dir, "reports"), { recursive: true });
  await mkdir(join(dir, "queries"), { recursive: true });
  await writeFile(join(dir, "queries", "sales-only.sql"), SALES_ONLY_SQL);
  const mail = { to: ["compliance@example.com"], attach: ["csv"], splitBy: "manager_email" };
  const queries = ["sales-only", "group-managers"];
  const report = { title: "Two lists", description: "Sales, then all.", queries, mail };
  await writeFile(
    join(dir, "reports", "two-lists.json"),
    JSON.stringify({ ...report, formats: ["csv"], fileName: "two-lists" }),
  );
}

/** The user_id column of a CSV file, sorted. */
async function userIds(path: string): Promise<number[]> {
  return (await csvPeople(path)).map((row) => row.user).sort((a, b) => a - b);
}

test("an address only a later query names gets its own share, not the report's recipients", async () => {
  const catalog = join(ws.dir, "later-cat");
  await writeCatalog(catalog);
  const out = join(ws.dir, "later-out");
  const { run, received } = await ws.mailed(
    ["report", "two-lists", "--catalog", catalog, "--db", "lms.duckdb", "--out", out, "--mail"],
    (url) => ({ LMS_SMTP_URL: url, LMS_MAIL_FROM: "reports@example.com", LMS_QUIET: "1" }),
  );
  expect(run.code, run.stderr).toBe(0);
  const to = received.map((m) => m.to.join(",")).sort();
  expect(to).toEqual(["compliance@example.com", ...Object.keys(MANAGERS)].sort());

  const north = join(out, "split", "north.lead@example.com");
  expect(await userIds(join(north, "two-lists-sales-only.csv"))).toEqual([]);
  expect(await userIds(join(north, "two-lists-group-managers.csv"))).toEqual([
    ...MANAGERS["north.lead@example.com"],
  ]);
  const unassigned = join(out, "split", "unassigned");
  const left = await userIds(join(unassigned, "two-lists-group-managers.csv"));
  expect(left.every((id) => UNASSIGNED.includes(id))).toBe(true);
  const body = received.find((m) => m.to.includes("compliance@example.com"))?.parsed.text ?? "";
  expect(body).toContain("each row with an address went to that address");
});
