/**
 * compliance's manager column naming, by address, someone the roster marks as gone: the address
 * is compared as the mail split keys it (src/mail/address.ts: NFC, lower case), so that a roster
 * typed on a Mac, which may write "ü" as "u" and a combining diaeresis, names the same mailbox
 * the split sees. On the hand-built dataset with its roster, today 2026-03-10.
 *
 * 207 (a leaver) has "Mu" + U+0308 "ller@…", the decomposed form; 106's manager cell writes it
 * composed. 208 (still there) has "josé@…" composed and 209 (a leaver) the decomposed form; 107's
 * cell writes the decomposed form: to the split that is 208's mailbox, still a manager.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { normaliseAddress } from "../../src/mail/address.js";
import { type Cell, openQueryRunner, type QueryRunner } from "./query-runner.js";

const MULLER_DECOMPOSED = "Mu\u0308ller@example.test";
const MULLER_COMPOSED = "m\u00fcller@example.test";
const JOSE_COMPOSED = "jos\u00e9@example.test";
const JOSE_DECOMPOSED = "jose\u0301@example.test";

/** The roster's additions: the three people above and the two manager cells. */
const ADDITIONS = [
  `ALTER TABLE "user" ADD COLUMN manager_email VARCHAR`,
  `INSERT INTO "user" (user_id, firstname, lastname, email, user_status) VALUES
     (207, 'Old', 'Müller', '${MULLER_DECOMPOSED}', 'Leaver'),
     (208, 'José', 'Still', '${JOSE_COMPOSED}', NULL),
     (209, 'José', 'Gone', '${JOSE_DECOMPOSED}', 'Leaver')`,
  `UPDATE "user" SET manager_email = '${MULLER_COMPOSED}' WHERE user_id = 106`,
  `UPDATE "user" SET manager_email = '${JOSE_DECOMPOSED}' WHERE user_id = 107`,
];

let runner: QueryRunner;
beforeAll(async () => {
  runner = await openQueryRunner({ roster: true, extra: ADDITIONS });
});
afterAll(() => runner.close());

async function managerOf(userId: number): Promise<Cell[]> {
  const { columns, rows } = await runner.run("compliance", { product_ids: "10" });
  return rows
    .filter((row) => Number(row[columns.indexOf("user_id")]) === userId)
    .map((row) => row[columns.indexOf("manager_email")] ?? null);
}

describe("a gone manager's address, written in another Unicode form", () => {
  test("the composed form of a leaver's decomposed address names no manager", async () => {
    expect(normaliseAddress(MULLER_COMPOSED)).toBe(normaliseAddress(MULLER_DECOMPOSED));
    expect(await managerOf(106)).toEqual([null]);
  });

  test("an address someone still there has in the other form stays a manager", async () => {
    expect(normaliseAddress(JOSE_DECOMPOSED)).toBe(normaliseAddress(JOSE_COMPOSED));
    const found = await managerOf(107);
    expect(found.map((cell) => normaliseAddress(String(cell)))).toEqual([
      normaliseAddress(JOSE_COMPOSED),
    ]);
  });
});
