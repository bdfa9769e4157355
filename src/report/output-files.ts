/**
 * Output files of one report run: names from the report's pattern, confined to the output folder,
 * each written under a temporary name in the same folder and renamed only when every file of the
 * report is complete. A failed run leaves no half file and leaves the previous files untouched
 * (rename within one folder replaces a file atomically); a killed one leaves its temporary files,
 * which the next run of the report removes.
 */
import { constants } from "node:fs";
import { access, rename, rm, stat } from "node:fs/promises";
import { LmsExportError } from "../errors/lms-export-error.js";
import { removeLeftoverTempFiles, tempFileName } from "../files/leftover-temp-files.js";
import { makeFolders } from "../files/make-folders.js";
import { mountRefusal } from "../files/mount-of.js";
import { confinePath } from "../security/confine-path.js";
import { regexLiteral } from "../text/regex-literal.js";

/** A file being written: `temp` now, `final` after commit. */
export interface StagedFile {
  readonly final: string;
  readonly temp: string;
}

/**
 * The file name a pattern gives: {date} YYYY-MM-DD and {time} HHMMSS (UTC), {report}, and {today}
 * the day the report is as of (report-day.ts).
 */
export function expandFileName(
  pattern: string,
  values: { report: string; now: Date; today: string },
): string {
  const iso = values.now.toISOString();
  return pattern
    .replaceAll("{date}", iso.slice(0, 10))
    .replaceAll("{today}", values.today)
    .replaceAll("{time}", iso.slice(11, 19).replaceAll(":", ""))
    .replaceAll("{report}", values.report);
}

/**
 * The names `expandFileName` gives `pattern` for `report` at any date and time, as a regular
 * expression's text (unanchored): what earlier runs of the report named their files.
 */
export function anyTimeFileName(pattern: string, report: string): string {
  const parts = pattern.split(/(\{date\}|\{today\}|\{time\}|\{report\})/);
  const placeholders: Record<string, string> = {
    "{date}": "\\d{4}-\\d{2}-\\d{2}",
    "{today}": "\\d{4}-\\d{2}-\\d{2}",
    "{time}": "\\d{6}",
    "{report}": regexLiteral(report),
  };
  return parts.map((part) => placeholders[part] ?? regexLiteral(part)).join("");
}

/**
 * What a folder being prepared is, for the one-line error: the folder --out names, or one
 * recipient's share folder below it (`OUT/split/ADDRESS`), which the user never named and must
 * not be told to pick another --out for as if it were the one they typed.
 */
export type OutputFolderRole = "out" | "share";

/**
 * Creates `outDir` if needed and checks it can be written; a bad-input error (one line) otherwise:
 * for a path that names a file, and for a place where no folder can be made.
 */
export async function prepareOutputDir(
  outDir: string,
  role: OutputFolderRole = "out",
): Promise<void> {
  const refuse = (error: unknown): never => {
    if (error instanceof LmsExportError) throw error;
    const { code: errno, blockedBy: blocked } = error as NodeJS.ErrnoException & {
      blockedBy?: string;
    };
    // A parent that is a file (makeFolders' ENOTDIR) is named: the folder asked for is not
    // what is in the way.
    const code = blocked !== undefined ? `ENOTDIR: ${blocked} is a file` : (errno ?? String(error));
    // /sys, /proc or a read-only mount: no permission to fix, so no advice to fix one.
    const mounted = blocked === undefined ? mountRefusal(outDir, errno) : undefined;
    if (mounted !== undefined) {
      throw new LmsExportError(
        "bad-input",
        `cannot write to ${role === "out" ? "output directory" : "the share folder"} ${outDir} (${code}): it ${mounted}, where no file can be made; choose another --out`,
      );
    }
    throw new LmsExportError(
      "bad-input",
      role === "out"
        ? `cannot write to output directory ${outDir} (${code}); choose another --out or fix its permissions`
        : `cannot write the share folder ${outDir} (${code}); fix its permissions or move what is in the way, or choose another --out`,
    );
  };
  await makeFolderOf(outDir, role).catch(refuse);
  await access(outDir, constants.W_OK).catch(refuse);
}

/**
 * makeFolders with `role`'s own message for a file where the folder asked for must be; its
 * parents are made as any folder (a file among them is an ENOTDIR naming it).
 */
async function makeFolderOf(path: string, role: OutputFolderRole): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info !== undefined && !info.isDirectory() && role === "out") {
    throw new LmsExportError(
      "bad-input",
      `--out ${path} is a file, not a folder: name a folder for the reports`,
    );
  }
  if (info !== undefined && !info.isDirectory()) {
    throw new LmsExportError(
      "bad-input",
      `${path} is a file where a share folder of the split mail goes: move or remove that file, or choose another --out`,
    );
  }
  await makeFolders(path);
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
