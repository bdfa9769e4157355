/**
 * `apply` plans against the database's records and sends to the portal's address: a database
 * extracted from another portal is refused before anything is sent, since the same ids may name
 * other records there. Two simulated portals over real HTTP and a real database file.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/simulator/server.js";
import { cli } from "../roster/roster-cli.js";
import { type ApplyFixture, csvFile, KEY, NOW, startFixture } from "./fixture.js";

let fx: ApplyFixture;
let other: RunningSimulator;
beforeAll(async () => {
  fx = await startFixture(43, 60);
  other = await startSimulator({ apiKey: KEY, now: NOW, seed: 43, users: 60 });
});
afterAll(async () => {
  await fx?.close();
  await other?.close();
});

describe("apply to another portal than the database's", () => {
  it("is refused with exit 2 before anything is sent to either; a dry run still shows the plan", async () => {
    const access = fx.sim.data.list("product_access").slice(0, 3);
    const path = await csvFile(fx.dir, "elsewhere.csv", [
      "product_access_id,product_access_expired_date",
      ...access.map((r) => `${r.product_access_id},2030-01-01T00:00:00Z`),
    ]);
    const writesBefore = fx.writes();
    const args = ["apply", path, "--op", "product_access.edit"];
    // The fixture's runWith would record the address as the database's: the flags are given here.
    const flags = ["--db", fx.db, "--api-key-file", fx.keyFile, "--log-format", "json"];
    const refused = await cli([...args, "--yes", ...flags, "--base-url", other.baseUrl], fx.dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      `lms-export: the database holds the records of ${fx.sim.baseUrl} (run 1), not ${other.baseUrl}: apply would compare the file with one portal and send it to another; nothing was sent. Pass --base-url ${fx.sim.baseUrl}, or the --db of ${other.baseUrl}'s extract`,
    );
    expect(other.stats.requests).toBe(0);
    expect(fx.writes()).toBe(writesBefore);

    const dry = await cli([...args, "--dry-run", ...flags, "--base-url", other.baseUrl], fx.dir);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("3 to change");
    expect(dry.stderr).toContain(
      `without --dry-run this is refused: the database holds the records of ${fx.sim.baseUrl}`,
    );
  });

  it("is refused where the database holds no extract at all, with nothing sent", async () => {
    // A database only a roster was imported into, as a mistyped --db next to a roster file makes.
    const people = await csvFile(fx.dir, "people.csv", ["user_id,email", "1,ana@x.org"]);
    const empty = join(fx.dir, "roster-only.duckdb");
    const imported = await cli(["roster", "import", people, "--db", empty], fx.dir);
    expect(imported.code, imported.stderr).toBe(0);
    const group = fx.sim.data.list("grp")[0];
    const path = await csvFile(fx.dir, "groups.csv", [
      "grp_id,grp_description",
      `${group?.grp_id},sent to no one`,
    ]);
    const writesBefore = fx.writes();
    const run = await fx.runWith(["apply", path, "--op", "grp.edit", "--yes"], { db: empty });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      `lms-export: the database roster-only.duckdb holds no extract of a portal: apply compares the file with the portal's records there and checks that they came from ${fx.sim.baseUrl}; nothing was sent. Run \`lms-export extract\` into it first, or pass the --db of the portal's extract`,
    );
    expect(fx.writes()).toBe(writesBefore);
    const dry = await fx.runWith(["apply", path, "--op", "grp.edit", "--dry-run"], { db: empty });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(
      "without --dry-run this is refused: the database roster-only.duckdb holds no extract of a portal",
    );
    // A dry run given no portal address at all names none.
    const bare = await cli(["apply", path, "--op", "grp.edit", "--dry-run", "--db", empty], fx.dir);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stderr).toContain("checks that they came from the portal it sends to; nothing");
    expect(bare.stderr).not.toContain("undefined");
  });
});
