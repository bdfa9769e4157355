/**
 * The results file is written after every row was sent; a place that refuses it is found before:
 * a folder where `<input>.results.csv` should be stops the run with nothing sent, and once it is
 * moved aside the same command applies the file and writes its results. A folder where the
 * journal's file goes is named as what to move.
 */
import { mkdir, rm, stat } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { csvFile, fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(83, 60);

describe("apply: where the results file goes", () => {
  it("a folder in its place stops the run before anything is sent", async () => {
    const fx = fixture();
    const access = fx.sim.data.list("product_access").slice(0, 3);
    const path = await csvFile(fx.dir, "place.csv", [
      "product_access_id,product_access_expired_date",
      ...access.map((r) => `${r.product_access_id},2033-01-02T03:04:05Z`),
    ]);
    await mkdir(`${path}.results.csv`);
    const args = ["apply", path, "--op", "product_access.edit", "--yes"];
    const before = fx.writes();
    const refused = await fx.run(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `${path}.results.csv, where apply writes each row's outcome, is not a file: move it aside, then run the same command again; nothing was sent`,
    );
    expect(fx.writes()).toBe(before);

    await rm(`${path}.results.csv`, { recursive: true });
    const applied = await fx.run(args);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain("3 applied");
    expect((await stat(`${path}.results.csv`)).isFile()).toBe(true);
  });

  it("a folder where the journal's file goes: the line says to move that folder", async () => {
    const fx = fixture();
    const [record] = fx.sim.data.list("product_access").slice(5, 6);
    const path = await csvFile(fx.dir, "journal-folder.csv", [
      "product_access_id,product_access_expired_date",
      `${record?.product_access_id},2034-01-02T03:04:05Z`,
    ]);
    const journal = `${fx.db}.apply-journal`;
    await mkdir(journal);
    try {
      const before = fx.writes();
      const refused = await fx.run(["apply", path, "--op", "product_access.edit", "--yes"]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("nothing was sent");
      expect(refused.stderr).toContain(
        `Move the folder ${journal} aside (apply keeps its journal in a file of that name), then run the same command again`,
      );
      expect(fx.writes()).toBe(before);
    } finally {
      await rm(journal, { recursive: true });
    }
  });
});
