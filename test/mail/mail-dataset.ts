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
    // A group that exists and has nobody in it: a report filtered to it has no rows.
    await insertRows(connection, "grp", [
      {
        grp_id: 9,
        grp_name: "Empty",
        grp_parent_id: null,
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

/** People per group (admins apart) with the e-mail of the group's admin: one row per group. */
const TEAM_SIZE_SQL = `-- title: Team size
-- description: People per group, with the e-mail of the group's admin.
WITH admins AS (
  SELECT a.user_grp_grp_id AS grp_id, nullif(trim(u.email), '') AS manager_email
  FROM user_grp a LEFT JOIN "user" u ON u.user_id = a.user_grp_user_id
  WHERE a.user_grp_group_admin = 1
)
SELECT grp.grp_name, admins.manager_email, count(DISTINCT m.user_grp_user_id) AS people
FROM user_grp m
JOIN grp ON grp.grp_id = m.user_grp_grp_id
LEFT JOIN admins ON admins.grp_id = m.user_grp_grp_id
WHERE coalesce(m.user_grp_group_admin, 0) = 0
GROUP BY ALL
ORDER BY grp.grp_name
`;

/**
 * A catalog folder with the reports `team-list` (split by manager), `empty-team` (when rows) and
 * `team-chart` (a bar chart of the team sizes, split by manager).
 */
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
  await writeFile(join(dir, "queries", "team-size.sql"), TEAM_SIZE_SQL);
  await writeFile(
    join(dir, "reports", "team-chart.json"),
    report({
      title: "Team chart",
      description: "People per group, drawn.",
      queries: ["team-size"],
      formats: ["csv"],
      fileName: "team-chart-{date}",
      charts: [{ query: "team-size", type: "bar", x: "grp_name", y: ["people"] }],
      mail: { to: ["compliance@example.com"], splitBy: "manager_email" },
    }),
  );
  await writeFile(
    join(dir, "reports", "empty-team.json"),
    report({
      title: "Empty team",
      description: "A group nobody is in.",
      queries: ["group-managers"],
      formats: ["csv"],
      params: { group_id: 9 },
      fileName: "empty-team-{date}",
      mail: { to: ["compliance@example.com"], when: "rows" },
    }),
  );
}
