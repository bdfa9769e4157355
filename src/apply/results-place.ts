/**
 * Whether the results file can be written beside the input, asked before anything is sent. It is
 * written only once every row was sent: a folder that refuses it (read-only, another user's, a
 * folder where the file should be) was found after the portal had taken every change, and the
 * run then failed with the changes made and no file to show which.
 */
import { open, rm, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { errorFirstLine } from "../errors/error-text.js";
import { LmsExportError } from "../errors/lms-export-error.js";
import { resultsPath } from "./results-csv.js";

/** Throws a bad-input error saying what to change when the results of `input` cannot be written. */
export async function checkResultsPlace(input: string): Promise<void> {
  const file = resultsPath(input);
  const found = await stat(file).catch(() => undefined);
  if (found !== undefined && !found.isFile()) {
    throw new LmsExportError(
      "bad-input",
      `${file}, where apply writes each row's outcome, is not a file: move it aside, then run the same command again; nothing was sent`,
    );
  }
  // Permissions and read-only mounts show only when a file is made: a probe, removed at once.
  const probe = join(dirname(file), `.${basename(file)}.${process.pid}.probe`);
  try {
    await (await open(probe, "wx")).close();
    await rm(probe, { force: true });
  } catch (error) {
    throw new LmsExportError(
      "bad-input",
      `apply cannot write ${file} (${errorFirstLine(error)}); nothing was sent: make its folder writable, or copy the file to a folder that is, and run apply on that copy`,
      { cause: error },
    );
  }
}
