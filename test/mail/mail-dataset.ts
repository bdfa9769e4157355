/**
 * The hand-built LMS dataset (test/fixtures) in a DuckDB file, plus a roster and group admins, and
 * a catalog of two mailed reports built on the shipped query group-managers.
 *
 * Admins: 201 of Sales (2) and 202 of North (3), with e-mails; 203 of Support (4), without one.
 * So sales.lead@example.com manages 102 and 104, north.lead@example.com manages 103 and 104, and
 * users 101, 105, 106, 107 and 108 have no manager address (5 rows for the report's own `to`).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createUserTableSql } from "../../src/load/user-table.js";
import { createLmsDatabase, insertRows } from "../fixtures/lms-dataset.js";

export const MANAGERS = {
  "sales.lead@example.com": [102, 104],
  "north.lead@example.com": [103, 104],
} as const;
export const UNASSIGNED = [101, 105, 106, 107, 108];

export async function createMailDatabase(path: string): Promise<void> {
  const db = await createLmsDatabase({ path });
  const connection = await db.connect();
  try {
    await connection.run(createUserTableSql());
    // A group nobody is in, for a report that mails nothing (its id must exist to be accepted).
    await insertRows(connection, "grp", [
      {
        grp_id: 999,
        grp_name: "Empty",
        grp_parent_id: 1,
        grp_created_date: "2025-01-01 00:00:00",
        grp_updated_date: "2025-01-01 00:00:00",
      },
    ]);
    await insertRows(connection, "user_grp", [
      { user_grp_id: 21, user_grp_grp_id: 2, user_grp_user_id: 201, user_grp_group_admin: 1 },
      { user_grp_id: 22, user_grp_grp_id: 3, user_grp_user_id: 202, user_grp_group_admin: 1 },
      { user_grp_id: 23, user_grp_grp_id: 4, user_grp_user_id: 203, user_grp_group_admin: 1 },
    ]);
    await insertRows(connection, "user", [
      { user_id: 102, email: "b@example.com", firstname: "Bea <b>", lastname: "Ng" },
      { user_id: 103, email: "c@example.com", firstname: "Cy", lastname: "Ode" },
      { user_id: 104, email: "d@example.com", firstname: "Dee", lastname: "Park" },
      { user_id: 201, email: "Sales.Lead@example.com", firstname: "Sal", lastname: "Lead" },
      { user_id: 202, email: "north.lead@example.com", firstname: "Nor", lastname: "Lead" },
      { user_id: 203, email: null, firstname: "Sup", lastname: "Lead" },
    ]);
  } finally {
    db.close();
  }
}

/** A catalog folder with the reports `team-list` (split by manager) and `empty-team` (when rows). */
export async function writeMailCatalog(dir: string): Promise<void> {
  await mkdir(join(dir, "reports"), { recursive: true });
  await mkdir(join(dir, "queries"), { recursive: true });
  const report = (fields: object) => `${JSON.stringify(fields, null, 2)}\n`;
  await writeFile(
    join(dir, "reports", "team-list.json"),
    report({
      title: "Team list",
      description: "Each manager's people.",
      queries: ["group-managers"],
      formats: ["csv", "xlsx"],
      fileName: "team-list-{date}",
      mail: {
        to: ["compliance@example.com"],
        cc: ["audit@example.com"],
        subject: "{title} for {date}",
        attach: ["csv", "xlsx"],
        splitBy: "manager_email",
      },
    }),
  );
  await writeFile(
    join(dir, "reports", "empty-team.json"),
    report({
      title: "Empty team",
      description: "A group nobody is in.",
      queries: ["group-managers"],
      formats: ["csv"],
      params: { group_id: 999 },
      fileName: "empty-team-{date}",
      mail: { to: ["compliance@example.com"], when: "rows" },
    }),
  );
}
