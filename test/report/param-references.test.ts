import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runReports } from "../../src/report/run-report.js";
import { createLmsDatabase, type TestDatabase } from "../fixtures/lms-dataset.js";

const NOW = new Date("2026-03-10T12:00:00Z");
let dir: string;
let db: TestDatabase;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "lms-param-refs-"));
  db = await createLmsDatabase();
});
afterAll(async () => {
  db.close();
  await rm(dir, { recursive: true, force: true });
});

describe("parameters that name records", () => {
  it("a group id the database does not know is an error naming the parameter, and nothing is written", async () => {
    const out = join(dir, "missing-group");
    await expect(
      runReports(db, ["compliance"], { outDir: out, params: { group_id: "99999" }, now: NOW }),
    ).rejects.toThrow(
      /^--param group_id=99999: no group with id 99999 in the database, so the report would match nobody; list them with: lms-export sql/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("names the unknown ones among several product ids", async () => {
    await expect(
      runReports(db, ["completion"], {
        outDir: join(dir, "products"),
        params: { product_ids: "10,77,20,88" },
        now: NOW,
      }),
    ).rejects.toThrow(/product_ids=.*no product with id 77, 88 in the database/);
  });

  it("runs when every named record exists", async () => {
    const [result] = await runReports(db, ["compliance"], {
      outDir: join(dir, "known"),
      formats: ["csv"],
      params: { group_id: "2", product_ids: "10" },
      now: NOW,
    });
    expect(result?.files).toHaveLength(1);
  });
});
