/** A catalog folder of the test's own queries and report definitions, loaded as the CLI loads it. */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Catalog, loadCatalog } from "../../src/report/catalog.js";
import { reportDocumentForJob } from "../../src/report/html/html-report.js";
import type { ReportDocument } from "../../src/report/html/report-document.js";
import { projectRoot } from "../../src/report/project-root.js";
import { resolveJobs } from "../../src/report/report-jobs.js";
import type { ReportSource } from "../../src/report/report-source.js";

/** Writes `queries` (name → SQL) and `reports` (name → JSON text) under `dir/catalog`. */
export async function writeTestCatalog(
  dir: string,
  queries: Readonly<Record<string, string>>,
  reports: Readonly<Record<string, string>>,
): Promise<Catalog> {
  await mkdir(join(dir, "catalog", "queries"), { recursive: true });
  await mkdir(join(dir, "catalog", "reports"), { recursive: true });
  for (const [name, sql] of Object.entries(queries)) {
    await writeFile(join(dir, "catalog", "queries", `${name}.sql`), sql);
  }
  for (const [name, json] of Object.entries(reports)) {
    await writeFile(join(dir, "catalog", "reports", `${name}.json`), json);
  }
  return loadCatalog(projectRoot(), [join(dir, "catalog")]);
}

/** The HTML report document of the catalog's report `name`, its parameters at their defaults. */
export async function reportDocumentByName(
  db: ReportSource,
  catalog: Catalog,
  name: string,
  options: { readonly cwd: string; readonly now: Date },
): Promise<ReportDocument> {
  const [job] = await resolveJobs([name], catalog, {
    cwd: options.cwd,
    formats: undefined,
    given: {},
    givenSource: "test",
    now: options.now,
  });
  if (!job) throw new Error(`no report ${name}`);
  return reportDocumentForJob(db, job, { now: options.now });
}
