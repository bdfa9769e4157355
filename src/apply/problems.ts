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

  toError(file: string): ChangeFileError {
    return new ChangeFileError(
      `${file}: ${this.counted()}, nothing was sent: ${this.listed()}. Fix the file and run apply again`,
    );
  }
}
