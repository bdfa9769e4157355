/**
 * compliance's managers when two group admins of one person have one mailbox written two ways
 * that DuckDB's lower() leaves apart and the mail split takes as one (normaliseAddress in
 * src/mail/address.ts): "İlker@…" and "i" with a combining dot, "ΝΊΚΟΣ@…" and "νίκος@…". The
 * person has one manager, so their share of a split report holds each of their rows once. On the
 * hand-built dataset with its roster, today 2026-03-10: 104 is in North (3) and Sales (2), whose
 * admins are 220 and 221; 101 is in group 1, whose admins are 222 and 223.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { normaliseAddress } from "../../src/mail/address.js";
import { type Cell, openQueryRunner, type QueryRunner } from "./query-runner.js";

const ILKER_CAPITAL = "\u0130lker@example.test";
const ILKER_DOTTED = "i\u0307lker@example.test";
const NIKOS_CAPITALS = "ΝΊΚΟΣ@example.test";
const NIKOS_LOWER = "νίκος@example.test";

let runner: QueryRunner;
beforeAll(async () => {
  runner = await openQueryRunner({
    roster: true,
    extra: [
      `INSERT INTO "user" (user_id, firstname, lastname, email) VALUES
         (220, 'İlker', 'North', '${ILKER_CAPITAL}'), (221, 'Ilker', 'Sales', '${ILKER_DOTTED}'),
         (222, 'Nikos', 'One', '${NIKOS_CAPITALS}'), (223, 'Nikos', 'Two', '${NIKOS_LOWER}')`,
      `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id, user_grp_group_admin) VALUES
         (31, 3, 220, 1), (32, 2, 221, 1), (33, 1, 222, 1), (34, 1, 223, 1)`,
    ],
  });
});
afterAll(() => runner.close());

async function managersOf(userId: number, byManager: boolean): Promise<Cell[]> {
  const { columns, rows } = await runner.run("compliance", {
    product_ids: "10",
    by_manager: String(byManager),
  });
  return rows
    .filter((row) => Number(row[columns.indexOf("user_id")]) === userId)
    .map((row) => row[columns.indexOf("manager_email")] ?? null);
}

describe("one mailbox written two ways by two group admins", () => {
  test.each([
    [104, ILKER_CAPITAL, ILKER_DOTTED],
    [101, NIKOS_CAPITALS, NIKOS_LOWER],
  ])("person %i has one row per product with by_manager", async (user, one, other) => {
    expect(normaliseAddress(one)).toBe(normaliseAddress(other));
    const found = await managersOf(user, true);
    expect(found).toHaveLength(1);
    expect(normaliseAddress(String(found[0]))).toBe(normaliseAddress(one));
  });

  test.each([104, 101])("person %i's manager cell names the mailbox once", async (user) => {
    const found = await managersOf(user, false);
    expect(found).toHaveLength(1);
    expect(String(found[0])).not.toContain(",");
  });
});
