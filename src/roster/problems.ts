/** The problems of one roster file, the first {@link PROBLEMS_SHOWN} listed in one error. */
import { ProblemList as TabularProblems } from "../tabular/problem-list.js";
import { RosterError } from "./errors.js";

export const PROBLEMS_SHOWN = 10;

export class ProblemList extends TabularProblems {
  constructor() {
    super(PROBLEMS_SHOWN);
  }

  /** One line: how many, that nothing changed, the first {@link PROBLEMS_SHOWN}, what to do. */
  toError(file: string): RosterError {
    return new RosterError(
      `${file}: ${this.counted()}, nothing was imported (the previous roster is unchanged): ${this.listed()}. Fix the file and import it again`,
    );
  }
}
