/**
 * Everything wrong with a change file, gathered over the whole file so that one message lists the
 * first {@link PROBLEMS_SHOWN} with their lines: nothing is sent until the file is clean.
 */
import { LmsExportError } from "../errors/lms-export-error.js";
import { ProblemList } from "../tabular/problem-list.js";

export const PROBLEMS_SHOWN = 20;

/** A change file that cannot be applied as it is (bad input, nothing sent). */
export class ChangeFileError extends LmsExportError {
  override readonly name = "ChangeFileError";
  constructor(message: string) {
    super("bad-input", message);
  }
}

export class ChangeProblems extends ProblemList {
  constructor() {
    super(PROBLEMS_SHOWN);
  }

  /**
   * `file` as messages name it (with the sheet read, for a workbook); `elsewhere`, another sheet of
   * the workbook that has the columns `op` needs, which the first sheet (`read`, as the reader
   * names it: `sheet "Instructions"`) lacked (`lacked`).
   */
  toError(
    file: string,
    elsewhere?: { sheet: string; op: string; read: string; lacked: readonly string[] },
  ): ChangeFileError {
    const read = elsewhere && `${elsewhere.read.charAt(0).toUpperCase()}${elsewhere.read.slice(1)}`;
    const fix = elsewhere
      ? `${read} lacks ${elsewhere.lacked.join(", ")}. Sheet "${elsewhere.sheet}" has the columns ${elsewhere.op} needs, but apply reads the first sheet: move "${elsewhere.sheet}" to the front of the workbook, save it and run apply again`
      : "Fix the file and run apply again";
    return new ChangeFileError(
      `${file}: ${this.counted()}, nothing was sent: ${this.listed()}. ${fix}`,
    );
  }
}
