/**
 * `--catalog DIR` (repeatable; env LMS_CATALOG, folders separated by the path delimiter): folders
 * of your own `queries/*.sql` and `reports/*.json`, used beside the shipped ones. An installed
 * tool's own folders are not the place for a team's reports.
 */
import { statSync } from "node:fs";
import { delimiter, join, resolve, sep } from "node:path";
import type { Argv } from "yargs";
import { homeOf, settingPath } from "../config/setting-path.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { type Catalog, loadCatalog } from "../report/catalog.js";
import { projectRoot } from "../report/project-root.js";
import type { CliContext } from "./context.js";

export function withCatalogOption<T>(y: Argv<T>) {
  return y.option("catalog", {
    type: "string",
    array: true,
    // One folder a flag: an array flag takes every word after it, the report names too.
    nargs: 1,
    description:
      "Folder with your own queries/*.sql and reports/*.json, beside the shipped ones (repeatable; env LMS_CATALOG)",
  });
}

/**
 * The shipped catalog with the given folders (flags, else LMS_CATALOG) merged over it. Broken
 * definitions are kept aside, not thrown: these commands name what they run (loadCatalog says
 * why). One of `named` that is broken throws its error now, before a database is opened, so that
 * its message is not hidden behind one about the database.
 */
export async function loadCatalogFor(
  flag: readonly string[] | undefined,
  ctx: CliContext,
  named: readonly string[] = [],
): Promise<Catalog> {
  const catalog = await loadCatalog(projectRoot(), catalogDirs(flag, ctx), { keepBroken: true });
  for (const name of named) {
    const broken = catalog.broken.get(name);
    if (broken) throw broken.error;
  }
  return catalog;
}

/**
 * Refuses an output folder inside the queries/ or reports/ folder of a catalog in use: report
 * files would sit among the definitions (and a `.json` export would be read as one).
 */
export function refuseOutputInCatalog(
  outDir: string,
  outSource: string,
  flag: readonly string[] | undefined,
  ctx: CliContext,
): void {
  const out = resolve(outDir);
  for (const root of [projectRoot(), ...catalogDirs(flag, ctx)]) {
    for (const folder of [join(root, "queries"), join(root, "reports")]) {
      if (out === folder || out.startsWith(`${folder}${sep}`)) {
        throw new LmsExportError(
          "bad-input",
          `${outSource} ${outDir} is inside the catalog folder ${folder}, where the query and report definitions live; write reports elsewhere, e.g. --out out`,
        );
      }
    }
  }
}

/**
 * The catalog folders given by flags, else LMS_CATALOG; each must be a folder. A leading "~" is
 * the home folder, as for the other path settings: no shell expands it in LMS_CATALOG set by a
 * service manager or in --catalog=~/….
 */
function catalogDirs(flag: readonly string[] | undefined, ctx: CliContext): string[] {
  const given = flag ?? ctx.env.LMS_CATALOG?.split(delimiter).filter(Boolean) ?? [];
  const source = flag ? "--catalog" : "LMS_CATALOG";
  const base = { dir: ctx.cwd, home: homeOf(ctx.env) };
  const dirs = given.map((dir) => settingPath(base, dir));
  for (const [i, dir] of dirs.entries()) {
    if (!isFolder(dir)) {
      throw new LmsExportError(
        "bad-input",
        `${source}: ${given[i]} is not a folder; give a folder holding queries/ and/or reports/`,
      );
    }
  }
  return dirs;
}

/** True for an existing folder; false for anything else, a path that cannot be read included. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
