/**
 * `check` without a portal address (a database copied for reports, mail set up) still says how the
 * database, the roster and the mail settings stand: only the portal's lines need the address, as
 * only they need the key. It fails all the same, exit 2, as the configuration is incomplete.
 * In-process through main(); a real DuckDB file; no portal is reached.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLmsDatabase } from "../fixtures/lms-dataset.js";
import { runCli } from "../helpers/in-process-cli.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-check-no-address-");

describe("check without a portal address", () => {
  it("says so, and still checks the database, the roster and the mail settings", async () => {
    (await createLmsDatabase({ path: join(dir, "copy.duckdb"), roster: true })).close();
    const run = await runCli(dir, ["check", "--db", "copy.duckdb"], {
      LMS_SMTP_URL: "smtp://127.0.0.1:2525",
      LMS_MAIL_FROM: "not an address",
    });
    const lines = run.stdout.split("\n").filter((line) => line !== "");
    expect(lines[0]).toBe(
      "✗ configuration: no portal address: pass --base-url URL or set LMS_BASE_URL",
    );
    expect(lines.find((line) => / mail settings: /.test(line))).toMatch(/^✗ mail settings: /);
    expect(lines.find((line) => / database: /.test(line))).toMatch(/^. database: .*copy\.duckdb/);
    expect(lines.find((line) => / roster: /.test(line))).toMatch(/^. roster: /);
    expect(lines.some((line) => /portal reachable|token|list call/.test(line))).toBe(false);
    expect(run.stderr).toBe("lms-export: check failed: fix the configuration first\n");
    expect(run.code).toBe(2);
  });
});
