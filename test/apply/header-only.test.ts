/**
 * A file with its header and no rows below it (a template saved before it was filled in, or the
 * wrong sheet): nothing is sent and the run exits 0, as a script writing a file of no changes on
 * a quiet day expects, but it says so rather than report "0 applied" as if rows had matched.
 */
import { expect, it } from "vitest";
import { csvFile, fixtureForFile } from "./fixture.js";

const fixture = fixtureForFile(93, 100);

it("a header and blank lines only: a warning, nothing sent, exit 0", async () => {
  const fx = fixture();
  const path = await csvFile(fx.dir, "template.csv", ["grp_id,grp_name", "", ",", ""]);
  const before = fx.writes();
  const result = await fx.run(["apply", path, "--op", "grp.edit", "--yes"]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toContain(
    "template.csv has no rows of changes below its header: nothing to apply",
  );
  expect(fx.writes()).toBe(before);
});
