/**
 * `list`'s text of a catalog whose only query shares its name with a report: that query is shown
 * among the definitions that cannot be loaded, and the queries' heading says there is none to run
 * rather than standing over nothing. A real catalog folder read by loadCatalog.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, test } from "vitest";
import { describeCatalog } from "../../src/cli/commands/list.js";
import { loadCatalog } from "../../src/report/catalog.js";
import { tempDirForFile } from "../helpers/temp-dir.js";

const dir = tempDirForFile("lms-list-text-");

test("a catalog whose only query is taken by a report's name lists no query to run", async () => {
  await mkdir(join(dir, "queries"), { recursive: true });
  await mkdir(join(dir, "reports"), { recursive: true });
  await writeFile(
    join(dir, "queries", "team.sql"),
    "-- title: Team\n-- description: The team.\nSELECT 1 AS one\n",
  );
  await writeFile(join(dir, "reports", "team.json"), "{}");
  const text = describeCatalog(await loadCatalog(dir, [], { keepBroken: true }));
  const queries = text.split("Queries (lms-export report NAME, or inside a report):")[1];
  expect(queries).toBe("\n\n  (none)\n");
  expect(text).toMatch(/^ {2}team {2}\(report\) /m);
});
