/**
 * Output files of one report run: names from the report's pattern, confined to the output folder,
 * each written under a temporary name in the same folder and renamed only when every file of the
 * report is complete. A failed run leaves no half file and leaves the previous files untouched
 * (rename within one folder replaces a file atomically); a killed one leaves its temporary files,
 * which the next run of the report removes.
 */
import { constants } from "node:fs";
import { access, mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { LmsExportError } from "../errors/lms-export-error.js";
import { removeLeftoverTempFiles, tempFileName } from "../files/leftover-temp-files.js";
import { confinePath } from "../security/confine-path.js";
import { regexLiteral } from "../text/regex-literal.js";

/** A file being written: `temp` now, `final` after commit. */
export interface StagedFile {
  readonly final: string;
  readonly temp: string;
}

/** The file name a pattern gives: {date} YYYY-MM-DD and {time} HHMMSS (UTC), {report}. */
export function expandFileName(pattern: string, values: { report: string; now: Date }): string {
  const iso = values.now.toISOString();
  return pattern
    .replaceAll("{date}", iso.slice(0, 10))
    .replaceAll("{time}", iso.slice(11, 19).replaceAll(":", ""))
    .replaceAll("{report}", values.report);
}

/**
 * The names `expandFileName` gives `pattern` for `report` at any date and time, as a regular
 * expression's text (unanchored): what earlier runs of the report named their files.
 */
export function anyTimeFileName(pattern: string, report: string): string {
  const parts = pattern.split(/(\{date\}|\{time\}|\{report\})/);
  const placeholders: Record<string, string> = {
    "{date}": "\\d{4}-\\d{2}-\\d{2}",
    "{time}": "\\d{6}",
    "{report}": regexLiteral(report),
  };
  return parts.map((part) => placeholders[part] ?? regexLiteral(part)).join("");
}

/**
 * Creates `outDir` if needed and checks it can be written; a bad-input error (one line) otherwise:
 * for a path that names a file, and for a place where no folder can be made.
 */
export async function prepareOutputDir(outDir: string): Promise<void> {
  const refuse = (error: unknown): never => {
    if (error instanceof LmsExportError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new LmsExportError(
      "bad-input",
      `cannot write to output directory ${outDir} (${code}); choose another --out or fix its permissions`,
    );
  };
  await makeFolders(outDir).catch(refuse);
  await access(outDir, constants.W_OK).catch(refuse);
}

/**
 * `mkdir -p`, one level at a time. Node's own recursive mkdir never returns for a path under
 * /proc or /sys (the kernel answers ENOENT for the child and EEXIST for the parent, and it retries
 * the pair forever at full CPU); here every error ends the walk.
 */
async function makeFolders(path: string, isOut = true): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) return;
  if (info !== undefined && isOut) {
    throw new LmsExportError(
      "bad-input",
      `--out ${path} is a file, not a folder: name a folder for the reports`,
    );
  }
  if (info !== undefined) throw Object.assign(new Error(path), { code: "ENOTDIR" });
  const parent = dirname(path);
  if (parent !== path) await makeFolders(parent, false);
  await mkdir(path).catch((error: NodeJS.ErrnoException) => {
    // Another process may have made it meanwhile; anything else is the answer.
    if (error.code !== "EEXIST") throw error;
  });
}

/** The files of one run. Call commit() or abort() once. */
export class OutputStaging {
  readonly #outDir: string;
  readonly #files: StagedFile[] = [];

  constructor(outDir: string) {
    this.#outDir = outDir;
  }

  /** Reserves `fileName` (bad-input error if it would leave the output folder). */
  reserve(fileName: string): StagedFile {
    const final = confinePath(this.#outDir, fileName);
    if (this.#files.some((f) => f.final === final)) {
      throw new LmsExportError(
        "bad-input",
        `two outputs of one report would both be written to ${fileName}`,
      );
    }
    const temp = tempFileName(final);
    const staged = { final, temp };
    this.#files.push(staged);
    return staged;
  }

  /**
   * Renames every temporary file to its final name, then removes what killed runs left beside
   * them; answers the final paths.
   */
  async commit(): Promise<string[]> {
    for (const file of this.#files) await rename(file.temp, file.final);
    for (const file of this.#files) await removeLeftoverTempFiles(file.final);
    return this.#files.map((f) => f.final);
  }

  /** Removes the temporary files; final files are not touched. */
  async abort(): Promise<void> {
    await Promise.all(this.#files.map((f) => rm(f.temp, { force: true })));
  }
}
