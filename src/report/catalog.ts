/**
 * The catalog: queries (`queries/*.sql`, each with a header comment) and report definitions
 * (`reports/*.json`), each checked when loaded; a broken definition stops the commands that name
 * it (or, by default, every command reading the catalog) with a message naming the file and the
 * field.
 */

import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { errnoCode } from "../config/errno-code.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { folderEntries } from "../files/folder-entries.js";
import type { BrokenDefinition, Catalog, QueryDef, ReportDef } from "./model.js";
import { parseQueryHeader } from "./query-header.js";
import { parseReportFile } from "./report-file.js";

export type {
  BrokenDefinition,
  Catalog,
  QueryDef,
  QueryParam,
  ReportDef,
  ReportFormat,
} from "./model.js";

const NAME = /^[a-z0-9][a-z0-9_-]*$/;

/** The text of a query or report file; a missing one is `not-found`, any other failure bad input. */
async function readCatalogFile(path: string, shown: string, kind: "query" | "report") {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = errnoCode(error) ?? "unreadable";
    // The error code alone says what is wrong only to those who know errno names.
    const what =
      code === "ENOENT"
        ? "does not exist (or is a link to nothing): check its path"
        : code === "EISDIR"
          ? `is a folder: name a ${kind === "query" ? ".sql" : ".json"} file`
          : `cannot be read (${code}): check that this user may read it`;
    throw new LmsExportError(
      code === "ENOENT" ? "not-found" : "bad-input",
      `${kind} file ${shown} ${what}`,
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
    ...(header.people !== "everyone" && { people: header.people }),
    sql,
  };
}

/**
 * The definition files of `dir`. A symbolic link is one too (a shared folder links files in): to
 * a file it loads, to nothing it is listed as broken, rather than its name being unknown.
 */
async function listFiles(dir: string, extension: string): Promise<string[]> {
  return (await folderEntries(dir))
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith(extension))
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

/** Where loaded definitions go: the good ones by name, the broken ones with their error. */
interface Loading<T> {
  readonly loaded: Map<string, T>;
  readonly broken: Map<string, BrokenDefinition>;
}

/**
 * Loads one definition file into `into`. A later folder's file replaces an earlier one of the same
 * name whether it loads or not: a broken definition of your own must fail, never be quietly
 * replaced by the shipped one it was meant to replace.
 */
async function loadDefinition<T>(
  file: CatalogFile,
  kind: BrokenDefinition["kind"],
  into: Loading<T>,
  load: () => Promise<T>,
): Promise<void> {
  try {
    into.loaded.set(file.name, await load());
    into.broken.delete(file.name);
  } catch (error) {
    if (!(error instanceof LmsExportError)) throw error;
    into.loaded.delete(file.name);
    into.broken.set(file.name, { name: file.name, kind, file: file.shown, error });
  }
}

/**
 * A report file named like a query file: `report NAME` could mean either, so the name is broken
 * (for the commands that name it) while the catalog's other definitions load, and the query
 * still serves the reports that list it among their queries.
 */
function nameClash(report: CatalogFile, queryFile: string): BrokenDefinition {
  const { name, shown } = report;
  const message = `${shown} and ${queryFile} are both named ${name}, so \`report ${name}\` cannot tell the report from the query; rename one of the two files (e.g. ${shown.replace(/\.json$/, "-report.json")})`;
  return { name, kind: "report", file: shown, error: new LmsExportError("bad-input", message) };
}

/**
 * Loads `root`/queries and `root`/reports, then the same folders of each of `extraRoots` (your
 * own catalogs), whose queries and reports replace shipped ones of the same name. Contract: every
 * query has a title, a description and well-formed parameters; every report names existing
 * queries (from any of the folders), sets only parameters its queries declare (with values of the
 * declared type), and its queries agree on each shared parameter's type; no name is both a query
 * and a report. A violation is a bad-input error naming the file (and the field or line).
 *
 * A file name that is not a valid name fails the whole catalog. A report named like a query is
 * a broken definition of that name (nameClash). A definition that breaks the rest of the
 * contract fails the whole catalog too unless `keepBroken`, the choice of the commands that name
 * the reports they run (`report`, `run`, `schedule`, `list`): a catalog folder is often shared,
 * and one colleague's unfinished draft must not stop everyone's other scheduled reports. Those
 * commands fail for a broken definition they name (with its error, never skipping it) and
 * `list` shows it with its error; a report using a broken query is broken itself. Commands that
 * use every definition without naming them (`demo`, benchmarks) keep the default, as they would
 * otherwise quietly leave one out.
 */
export async function loadCatalog(
  root: string,
  extraRoots: readonly string[] = [],
  options: { keepBroken?: boolean } = {},
): Promise<Catalog> {
  const roots = [{ dir: root, label: "" }, ...extraRoots.map((dir) => ({ dir, label: `${dir}/` }))];
  const broken = new Map<string, BrokenDefinition>();
  const queries = new Map<string, QueryDef>();
  const queryFiles = new Map<string, string>();
  for (const file of await catalogFiles(roots, "queries")) {
    queryFiles.set(file.name, file.shown);
    await loadDefinition(file, "query", { loaded: queries, broken }, () =>
      loadQueryFile(file.path, file.shown, { strict: true }),
    );
  }
  const reports = new Map<string, ReportDef>();
  const clashes = new Map<string, BrokenDefinition>();
  for (const file of await catalogFiles(roots, "reports")) {
    const { name, shown } = file;
    const queryFile = queryFiles.get(name);
    if (queryFile !== undefined) {
      clashes.set(name, nameClash(file, queryFile));
      continue;
    }
    await loadDefinition(file, "report", { loaded: reports, broken }, async () => {
      const text = await readCatalogFile(file.path, shown, "report");
      return parseReportFile(text, { name, file: shown, queries, broken });
    });
  }
  // Only now: the query of the name still serves the reports that name it among their queries.
  for (const [name, clash] of clashes) broken.set(name, clash);
  const first = [...broken.values()][0];
  if (first && options.keepBroken !== true) throw first.error;
  return { queries, reports, broken };
}
