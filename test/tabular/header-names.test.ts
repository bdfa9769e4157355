import { describe, expect, test } from "vitest";
import { headerKey, snakeCase, uniqueColumnNames } from "../../src/tabular/header-names.js";

describe("header names", () => {
  test.each([
    ["Manager Email", "manager_email"],
    ["Department", "department"],
    ["  E-mail address ", "e_mail_address"],
    ["Prénom", "prenom"],
    ["managerEmail", "manager_email"],
    ["UserID", "user_id"],
    ["HRISCode", "hriscode"],
    ["Cost Centre (€)", "cost_centre"],
    ["部署", "部署"],
    ["Straße", "straße"],
    ["2024 Score", "2024_score"],
    ["!!!", ""],
  ])("snakeCase(%j) = %j", (raw, name) => {
    expect(snakeCase(raw)).toBe(name);
  });

  test("headerKey ignores case, spaces, punctuation and accents", () => {
    expect(new Set(["E-mail", "email", "EMAIL", " e mail ", "É-mail"].map(headerKey))).toEqual(
      new Set(["email"]),
    );
    expect(headerKey("Prénom")).toBe("prenom");
  });

  test("unique names: empty headers by position, repeats suffixed, presets kept", () => {
    // "Dept 2" keeps dept_2: a repeat is suffixed past the names other headers ask for.
    expect(uniqueColumnNames(["Dept", "", "dept", "Dept 2", "DEPT", "?"])).toEqual([
      "dept",
      "column_2",
      "dept_3",
      "dept_2",
      "dept_4",
      "column_6",
    ]);
    expect(uniqueColumnNames(["ID", "email", "E-mail"], ["user_id", undefined, "email"])).toEqual([
      "user_id",
      "email_2",
      "email",
    ]);
  });
});
