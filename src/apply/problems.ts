/**
 * Everything wrong with a change file, gathered over the whole file so that one message lists the
 * first {@link PROBLEMS_SHOWN} with their lines: nothing is sent until the file is clean.
 */
import { ProblemList } from "../tabular/problem-list.js";

export const PROBLEMS_SHOWN = 20;

/** A change file that cannot be applied as it is (exit code 2, nothing sent). */
export class ChangeFileError extends Error {
  override readonly name = "ChangeFileError";
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
