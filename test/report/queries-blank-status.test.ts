/**
 * A roster status of white space alone is no status, and a person without one stays: a trailing
 * comma in excluded_statuses ("inactive,leaver,", as a list is often typed) names no status, so it
 * leaves out no one the list without it keeps.
 *
 * On the hand-built dataset (test/fixtures/lms-dataset.ts, today 2026-03-10) 104 is "Inactive"
 * and 106 has a tab and a space for a status; both hold required products.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

/** 104 is gone by its status; 106's status is a tab and a space, which is none. */
const STATUSES = [
  `UPDATE "user" SET user_status = 'Inactive' WHERE user_id = 104`,
  `UPDATE "user" SET user_status = chr(9) || ' ' WHERE user_id = 106`,
];

let runner: QueryRunner;

beforeAll(async () => {
  runner = await openQueryRunner({ roster: true, extra: STATUSES });
});
afterAll(() => runner.close());

/** The user ids of compliance's rows with these parameters, each once, in order. */
async function people(params: Record<string, string>): Promise<unknown[]> {
  const { columns, rows } = await runner.run("compliance", params);
  return [...new Set(rows.map((row) => row[columns.indexOf("user_id")]))].sort();
}

/** The overall row of compliance-summary with these parameters. */
async function overall(params: Record<string, string>): Promise<unknown[]> {
  const { rows } = await runner.run("compliance-summary", params);
  return rows.find((row) => row[0] === "overall")!;
}

describe("a blank item of excluded_statuses", () => {
  test("leaves out no one: a person with a blank status stays", async () => {
    const listed = { excluded_statuses: "inactive,leaver" };
    const trailing = { excluded_statuses: "inactive,leaver," };
    expect(await people(listed)).toContain(106);
    expect(await people(trailing)).toEqual(await people(listed));
    expect(await people({ excluded_statuses: "inactive, ,leaver" })).toEqual(await people(listed));
    expect(await overall(trailing)).toEqual(await overall(listed));
    const trend = await runner.run("compliance-trend", { ...trailing, weeks: "1" });
    const trendListed = await runner.run("compliance-trend", { ...listed, weeks: "1" });
    expect(trend.rows).toEqual(trendListed.rows);
  });

  test("a list of blank items alone is the empty list: no one is left out", async () => {
    expect(await people({ excluded_statuses: "," })).toEqual(
      await people({ excluded_statuses: "" }),
    );
  });
});
