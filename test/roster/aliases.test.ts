/** Header names of common HR exports, matched to the roster's columns (src/roster/aliases.ts). */
import { describe, expect, test } from "vitest";
import { planRosterColumns } from "../../src/roster/aliases.js";

describe("roster header aliases", () => {
  test("a French export's Prénom and Nom are first and last name", () => {
    const plan = planRosterColumns(["ID", "Prénom", "Nom", "Courriel"], "people.csv");
    expect(plan.names).toEqual(["user_id", "firstname", "lastname", "courriel"]);
    expect(plan.extras).toEqual(["courriel"]);
    const long = planRosterColumns(["user_id", "Nom de famille"], "people.csv");
    expect(long.names).toEqual(["user_id", "lastname"]);
  });
});
