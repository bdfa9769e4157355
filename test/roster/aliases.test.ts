/** Header names of common HR exports, matched to the roster's columns (src/roster/aliases.ts). */
import { describe, expect, test } from "vitest";
import { planRosterColumns } from "../../src/roster/aliases.js";
import { RosterError } from "../../src/roster/errors.js";

/** Every header here has a user_id column. */
const noUserId = () => new RosterError("no user_id column");

describe("roster header aliases", () => {
  test("a French export's Prénom and Nom are first and last name", () => {
    const plan = planRosterColumns(["ID", "Prénom", "Nom", "Courriel"], "people.csv", noUserId);
    expect(plan.names).toEqual(["user_id", "firstname", "lastname", "courriel"]);
    expect(plan.extras).toEqual(["courriel"]);
    const long = planRosterColumns(["user_id", "Nom de famille"], "people.csv", noUserId);
    expect(long.names).toEqual(["user_id", "lastname"]);
  });

  test("a portal or snapshot_date column is renamed; a long header is cut to PostgreSQL's 63 bytes", () => {
    const long = `Manager responsible for training ${"部署".repeat(10)}`;
    const plan = planRosterColumns(
      ["User ID", "Portal", "Snapshot date", `${long} (primary)`, `${long} (backup)`],
      "people.csv",
      noUserId,
    );
    const [id, portal, day, first, second] = plan.names;
    expect([id, portal, day]).toEqual(["user_id", "portal_2", "snapshot_date_2"]);
    expect(Buffer.byteLength(first ?? "")).toBeLessThanOrEqual(63);
    expect(Buffer.byteLength(second ?? "")).toBeLessThanOrEqual(63);
    expect(second).toBe(`${first}_2`);
    // Cut between characters: 33 bytes of ASCII and eight 3-byte characters, 57 of the 59 bytes
    // a name keeps before room for a suffix.
    expect(first).toBe(`manager_responsible_for_training_${"部署".repeat(4)}`);
    expect(plan.renamed).toEqual([
      { header: "Portal", name: "portal_2" },
      { header: "Snapshot date", name: "snapshot_date_2" },
      { header: `${long} (backup)`, name: second },
    ]);
  });

  test("a renamed column never takes the name a later header asks for", () => {
    const plan = planRosterColumns(
      ["user_id", "portal", "Portal_2", "Dept", "", "dept", "Dept 2"],
      "people.csv",
      noUserId,
    );
    expect(plan.names).toEqual([
      "user_id",
      "portal_3",
      "portal_2",
      "dept",
      "column_5",
      "dept_3",
      "dept_2",
    ]);
    expect(plan.renamed).toEqual([
      { header: "portal", name: "portal_3" },
      { header: "", name: "column_5" },
      { header: "dept", name: "dept_3" },
    ]);
  });
});
