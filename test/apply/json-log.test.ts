/**
 * `apply --log-format json` writes nothing but JSON records on stderr: its progress, too, is a
 * record (`sent`, `failed`, `total`), so a program reading the log meets no line of text.
 */
import { describe, expect, it } from "vitest";
import { csvFile, fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(61, 40);

describe("apply: a JSON log", () => {
  it("writes its progress as JSON records, every line of stderr one", async () => {
    const fx = fixture();
    const ids = fx.sim.data
      .list("product_access")
      .filter((r) => r.product_access_status !== "expired")
      .slice(0, 3)
      .map((r) => r.product_access_id);
    const path = await csvFile(fx.dir, "expire.csv", [
      "product_access_id,product_access_status",
      ...ids.map((id) => `${id},expired`),
    ]);
    // In-process, its stderr as the command writes it; --log-format json is among the flags.
    const run = await fx.run(["apply", path, "--op", "product_access.edit", "--yes"]);
    expect(run.code, run.stderr).toBe(0);
    const records = run.stderr
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const progress = records.filter((r) => String(r.msg).startsWith("applying: "));
    expect(progress.at(-1)).toMatchObject({ level: "info", sent: 3, failed: 0, total: 3 });
  });
});
