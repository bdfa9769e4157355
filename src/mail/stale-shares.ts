/**
 * Shares an earlier run wrote for recipients this run has none for: a manager who left keeps a
 * folder `OUT/split/ADDRESS/` that looks like this run's output. A run that mails every share
 * removes, from every share folder it did not write, the report's own files of any run; a folder
 * left empty goes too. Only files named as the report names its files are removed: another
 * report's shares in the same folders (another schedule writing to the same --out) and anything
 * the user put there stay, and so do folders not named as shares are.
 *
 * It runs once every share of the report is written, or once a report mailed only with rows is
 * found to have none (no share is written then): a run that fails or is stopped before leaves the
 * earlier shares as they were. A --mail-only run writes only the shares it sends, and keeps the
 * folders of every address the report has now: it runs once every message of the report reached
 * everyone (send-report.ts), so that a message still to be sent again finds its folder; a report
 * with no rows then, mailed only with rows, has no share and no message: all of them go.
 */

import { rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { errorText } from "../errors/error-text.js";
import { folderEntries } from "../files/folder-entries.js";
import { removeLeftoverTempFiles, tempFileTarget } from "../files/leftover-temp-files.js";
import type { Logger } from "../log/logger.js";
import type { ReportJob } from "../report/report-jobs.js";
import { isJobFileName } from "../report/run-report.js";
import { isShareFolderName, shareFolder, splitFolder } from "./split-files.js";

/**
 * Removes `job`'s files from the share folders under `outDir` other than those of `written` (the
 * addresses of this run's shares, undefined for the rows without one). A folder that cannot be
 * cleaned is logged, never thrown: the mail goes out all the same.
 */
export async function removeStaleShares(
  outDir: string,
  job: ReportJob,
  written: readonly (string | undefined)[],
  logger: Logger,
): Promise<void> {
  const current = new Set(written.map((address) => shareFolder(outDir, address)));
  const removed: string[] = [];
  const entries = await folderEntries(splitFolder(outDir)).catch((error: unknown) => {
    // OUT/split a file, or unreadable: nothing of an earlier run can be told apart there.
    logger.warn("the shares of earlier runs could not be listed", {
      report: job.name,
      folder: splitFolder(outDir),
      error: errorText(error),
    });
    return [];
  });
  for (const entry of entries) {
    // A link is not followed: what it points to is not a folder this tool made.
    if (!entry.isDirectory() || !isShareFolderName(entry.name)) continue;
    const folder = shareFolder(outDir, entry.name);
    if (current.has(folder)) continue;
    try {
      if (await removeJobFiles(folder, job)) removed.push(folder);
    } catch (error) {
      logger.warn("a share of an earlier run could not be removed", {
        report: job.name,
        folder,
        error: errorText(error),
      });
    }
  }
  if (removed.length > 0) {
    logger.info("shares of an earlier run removed: no recipient of this run", {
      report: job.name,
      folders: removed,
    });
  }
}

/**
 * Removes `job`'s files from `folder`, and `folder` if that leaves it empty; whether anything was.
 * A killed run's temporary files of the report go too when their writer is gone: they would keep
 * the folder of a recipient who left forever.
 */
async function removeJobFiles(folder: string, job: ReportJob): Promise<boolean> {
  const entries = (await folderEntries(folder)).filter((e) => e.isFile());
  const files = entries.filter((e) => isJobFileName(job, e.name));
  for (const file of files) await rm(join(folder, file.name), { force: true });
  const leftovers = new Set(entries.map((e) => tempFileTarget(e.name)));
  for (const final of leftovers) {
    if (final !== undefined && isJobFileName(job, final)) {
      await removeLeftoverTempFiles(join(folder, final));
    }
  }
  try {
    await rmdir(folder);
    return true;
  } catch (error) {
    // Files of another report, or of the user: the folder is theirs too.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
  }
  return files.length > 0;
}
