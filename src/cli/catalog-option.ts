/**
 * `--catalog DIR` (repeatable; env LMS_CATALOG, folders separated by the path delimiter): folders
 * of your own `queries/*.sql` and `reports/*.json`, used beside the shipped ones. An installed
 * tool's own folders are not the place for a team's reports.
 */
import { statSync } from "node:fs";
import { delimiter, resolve } from "node:path";
import type { Argv } from "yargs";
import { UsageError } from "../cli-error.js";
import { type Catalog, loadCatalog } from "../report/catalog.js";
import { projectRoot } from "../report/project-root.js";
import type { CliContext } from "./context.js";

export function withCatalogOption<T>(y: Argv<T>) {
  return y.option("catalog", {
    type: "string",
    array: true,
    description:
      "Folder with your own queries/*.sql and reports/*.json, beside the shipped ones (repeatable; env LMS_CATALOG)",
  });
}

/** The shipped catalog with the given folders (flags, else LMS_CATALOG) merged over it. */
export async function loadCatalogFor(
  flag: readonly string[] | undefined,
  ctx: CliContext,
): Promise<Catalog> {
  const given = flag ?? ctx.env.LMS_CATALOG?.split(delimiter).filter(Boolean) ?? [];
  const source = flag ? "--catalog" : "LMS_CATALOG";
  const dirs = given.map((dir) => resolve(ctx.cwd, dir));
  for (const [i, dir] of dirs.entries()) {
    if (!isFolder(dir)) {
      throw new UsageError(
        `${source}: ${given[i]} is not a folder; give a folder holding queries/ and/or reports/`,
      );
    }
  }
  return loadCatalog(projectRoot(), dirs);
}

/** True for an existing folder; false for anything else, a path that cannot be read included. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
