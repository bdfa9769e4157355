/**
 * The shipped queries that list people or groups by name sort them alphabetically, as a reader
 * expects: case, accents and the white space around a name ignored, letters such as "Ł" and "Ø"
 * beside their base letter, the name as written breaking ties. Byte order put " Lee" first,
 * "smith" blocks after "Smith", and "Ávila", "Öberg", "Łukasz" after "Zimmer".
 *
 * Its own small dataset: everyone holds product 10 from 2026-03-01, due 03-31, so no row is
 * overdue on 2026-03-10 and the order is by name alone.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openQueryRunner, type QueryRunner } from "./query-runner.js";

/** user id, first name, last name, groups linked to directly */
const PEOPLE: [number, string, string, number[]][] = [
  [1, "Ann", " Lee", [3, 2, 5]],
  [2, "Zoe", "smith", [1]],
  [3, "Adam", "Smith", [4]],
  [4, "Eva", "Ávila", [7]],
  [5, "Olle", "Öberg", [8]],
  [6, "Piotr", "Łukasz", [9]],
  [7, "Max", "Zimmer", []],
  [8, "Bob", "Adams", []],
  [9, "Bea", "Lewis", []],
  [10, "ana", "Lewis", []],
  [11, "Ángel", "Lewis", []],
];

/** group id, name, parent: Alpha holds North and Ørsted; " Zeta" has a space before its name. */
const GROUPS: [number, string, number | null][] = [
  [1, "beta", null],
  [2, "Alpha", null],
  [3, " Zeta", null],
  [4, "Ångström", null],
  [5, "Łódź", null],
  [7, "Ørsted", 2],
  [8, "North", 2],
  [9, "Alpha (old)", null],
];

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

let runner: QueryRunner;

beforeAll(async () => {
  const links = PEOPLE.flatMap(([user, , , groups]) => groups.map((grp) => [user, grp]));
  runner = await openQueryRunner({
    empty: true,
    extra: [
      `INSERT INTO product (product_id, product_i18n_title) VALUES (10, 'Safety')`,
      `INSERT INTO grp (grp_id, grp_name, grp_parent_id, grp_created_date, grp_updated_date)
       VALUES ${GROUPS.map(
         ([id, name, parent]) =>
           `(${id}, ${quote(name)}, ${parent ?? "NULL"}, '2025-01-01', '2025-01-01')`,
       ).join(", ")}`,
      `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id, user_grp_group_admin)
       VALUES ${links.map(([user, grp], i) => `(${i + 1}, ${grp}, ${user}, 0)`).join(", ")}`,
      `INSERT INTO "user" (user_id, firstname, lastname, email) VALUES ${PEOPLE.map(
        ([id, first, last]) => `(${id}, ${quote(first)}, ${quote(last)}, 'p${id}@example.test')`,
      ).join(", ")}`,
      `INSERT INTO product_access (product_access_id, product_access_user_id,
         product_access_product_id, product_access_status, product_access_created_date)
       VALUES ${PEOPLE.map(([id]) => `(${id}, ${id}, 10, 'active', '2026-03-01')`).join(", ")}`,
    ],
  });
});
afterAll(() => runner?.close());

describe("names in alphabetical order", () => {
  test("compliance: by last name, then first name; a person's groups too", async () => {
    const { columns, rows } = await runner.run("compliance");
    const at = (name: string) => columns.indexOf(name);
    expect(rows.map((r) => r[at("days_overdue")])).toEqual(rows.map(() => 0));
    expect(rows.map((r) => `${r[at("lastname")]}, ${r[at("firstname")]}`)).toEqual([
      "Adams, Bob",
      "Ávila, Eva",
      " Lee, Ann",
      "Lewis, ana",
      "Lewis, Ángel",
      "Lewis, Bea",
      "Łukasz, Piotr",
      "Öberg, Olle",
      // One last name whatever its case: ordered by first name.
      "Smith, Adam",
      "smith, Zoe",
      "Zimmer, Max",
    ]);
    expect(rows.find((r) => r[at("user_id")] === 1)?.[at("groups")]).toBe("Alpha, Łódź,  Zeta");
  });

  test("compliance-summary: its group rows by name", async () => {
    const { rows } = await runner.run("compliance-summary");
    expect(rows.filter((r) => r[0] === "group").map((r) => r[1])).toEqual([
      "Alpha",
      "Alpha (old)",
      "Ångström",
      "beta",
      "Łódź",
      "North",
      "Ørsted",
      " Zeta",
    ]);
  });

  test("group-rollup: the tree, each group under its parent, siblings by name", async () => {
    const { rows } = await runner.run("group-rollup");
    expect(rows.map((r) => r[4])).toEqual([
      "Alpha",
      "Alpha > North",
      "Alpha > Ørsted",
      "Alpha (old)",
      "Ångström",
      "beta",
      "Łódź",
      " Zeta",
    ]);
  });
});

describe("a person's groups", () => {
  test("each name once, however many groups bear it; case breaks ties as written", async () => {
    const extra = await openQueryRunner({
      empty: true,
      extra: [
        `INSERT INTO product (product_id, product_i18n_title) VALUES (10, 'Safety')`,
        `INSERT INTO grp (grp_id, grp_name, grp_parent_id, grp_created_date, grp_updated_date)
         VALUES (1, 'Alpha', NULL, '2025-01-01', '2025-01-01'),
                (2, 'Alpha', NULL, '2025-01-01', '2025-01-01'),
                (3, 'alpha', NULL, '2025-01-01', '2025-01-01'),
                (4, ' Zeta', NULL, '2025-01-01', '2025-01-01'),
                (5, 'Łódź', NULL, '2025-01-01', '2025-01-01')`,
        `INSERT INTO user_grp (user_grp_id, user_grp_grp_id, user_grp_user_id, user_grp_group_admin)
         VALUES (1, 4, 1, 0), (2, 2, 1, 0), (3, 5, 1, 0), (4, 3, 1, 0), (5, 1, 1, 0)`,
        `INSERT INTO "user" (user_id, firstname, lastname, email)
         VALUES (1, 'Ann', 'Lee', 'a@example.test'), (2, 'Bo', 'Ek', 'b@example.test')`,
        `INSERT INTO product_access (product_access_id, product_access_user_id,
           product_access_product_id, product_access_status, product_access_created_date)
         VALUES (1, 1, 10, 'active', '2026-03-01'), (2, 2, 10, 'active', '2026-03-01')`,
      ],
    });
    try {
      const { columns, rows } = await extra.run("compliance");
      const groups = new Map(
        rows.map((r) => [r[columns.indexOf("user_id")], r[columns.indexOf("groups")]]),
      );
      expect(groups.get(1)).toBe("Alpha, alpha, Łódź,  Zeta");
      expect(groups.get(2)).toBeNull(); // in no group
    } finally {
      extra.close();
    }
  });
});
