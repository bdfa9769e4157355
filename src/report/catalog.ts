/**
 * The catalog: queries (`queries/*.sql`, each with a header comment) and report definitions
 * (`reports/*.json`), loaded and checked as a whole so that a broken definition stops every
 * command that reads it with a message naming the file and the field.
 */

import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { errnoCode } from "../config/errno-code.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { folderEntries } from "../files/folder-entries.js";
import type { Catalog, QueryDef, ReportDef } from "./model.js";
import { parseQueryHeader } from "./query-header.js";
import { parseReportFile } from "./report-file.js";

export type { Catalog, QueryDef, QueryParam, ReportDef, ReportFormat } from "./model.js";

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** The text of a query or report file; a missing one is `not-found`, any other failure bad input. */
async function readCatalogFile(path: string, shown: string, kind: "query" | "report") {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = errnoCode(error) ?? "unreadable";
    throw new LmsExportError(
      code === "ENOENT" ? "not-found" : "bad-input",
      `cannot read ${kind} file ${shown} (${code})`,
    );
  }
}

/**
 * Reads a query file. `shown` is the path used in messages. Catalog queries must have a title and
 * a description; a standalone file (`strict` false) may omit them.
 */
export async function loadQueryFile(
  path: string,
  shown: string,
  options: { strict: boolean },
): Promise<QueryDef> {
  const sql = await readCatalogFile(path, shown, "query");
  const header = parseQueryHeader(sql, shown);
  const name = basename(path).replace(/\.sql$/i, "");
  if (options.strict) {
    if (!header.title)
      throw new LmsExportError("bad-input", `${shown}: the header has no "-- title:" line`);
    if (!header.description) {
      throw new LmsExportError("bad-input", `${shown}: the header has no "-- description:" line`);
    }
  }
  return {
    name,
    file: shown,
    title: header.title ?? name,
    description: header.description ?? "",
    params: header.params,
    labels: header.labels,
    sql,
  };
}

async function listFiles(dir: string, extension: string): Promise<string[]> {
  return (await folderEntries(dir))
    .filter((e) => e.isFile() && e.name.endsWith(extension))
    .map((e) => e.name)
    .sort();
}

/** A catalog file: where it is, how messages show it, and the name it gives its query or report. */
interface CatalogFile {
  readonly path: string;
  readonly shown: string;
  readonly name: string;
}

/**
 * The `kind` files (`queries/*.sql` or `reports/*.json`) of every root in order, each name checked:
 * the file name becomes the query or report name.
 */
async function catalogFiles(
  roots: readonly { dir: string; label: string }[],
  kind: "queries" | "reports",
): Promise<CatalogFile[]> {
  const extension = kind === "queries" ? ".sql" : ".json";
  const noun = kind === "queries" ? "query" : "report";
  const found: CatalogFile[] = [];
  for (const { dir, label } of roots) {
    const folder = join(dir, kind);
    for (const file of await listFiles(folder, extension)) {
      const shown = `${label}${kind}/${file}`;
      const name = file.slice(0, -extension.length);
      if (!NAME.test(name)) {
        throw new LmsExportError(
          "bad-input",
          `${shown}: a ${noun} file name must be lower case letters, digits, - and _ (it becomes the ${noun} name)`,
        );
      }
      found.push({ path: join(folder, file), shown, name });
    }
  }
  return found;
}

/**
 * Loads `root`/queries and `root`/reports, then the same folders of each of `extraRoots` (your
 * own catalogs), whose queries and reports replace shipped ones of the same name. Contract: every
 * query has a title, a description and well-formed parameters; every report names existing
 * queries (from any of the folders), sets only parameters its queries declare (with values of the
 * declared type), and its queries agree on each shared parameter's type; no name is both a query
 * and a report. Any violation is a bad-input error naming the file (and the field or line).
 */
export async function loadCatalog(
  root: string,
  extraRoots: readonly string[] = [],
): Promise<Catalog> {
  const roots = [{ dir: root, label: "" }, ...extraRoots.map((dir) => ({ dir, label: `${dir}/` }))];
  const queries = new Map<string, QueryDef>();
  for (const { path, shown, name } of await catalogFiles(roots, "queries")) {
    queries.set(name, await loadQueryFile(path, shown, { strict: true }));
  }
  const reports = new Map<string, ReportDef>();
  for (const { path, shown, name } of await catalogFiles(roots, "reports")) {
    if (queries.has(name)) {
      throw new LmsExportError(
        "bad-input",
        `${shown}: report ${name} has the same name as a query; rename one`,
      );
    }
    const text = await readCatalogFile(path, shown, "report");
    reports.set(name, parseReportFile(text, { name, file: shown, queries }));
  }
  return { queries, reports };
}
