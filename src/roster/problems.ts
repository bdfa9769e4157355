/**
 * The problems of one file, gathered while it is read so that one error can list the first few
 * with their places: fixing a file one error at a time is a slow loop.
 */
import { RosterError } from "./errors.js";

export const PROBLEMS_SHOWN = 10;

export class ProblemList {
  private readonly shown: string[] = [];
  private total = 0;

  get count(): number {
    return this.total;
  }

  /** `where` is e.g. "line 12" or "row 4". */
  add(where: string, message: string): void {
    this.total++;
    if (this.shown.length < PROBLEMS_SHOWN) this.shown.push(`${where}: ${message}`);
  }

  /** One line: how many, that nothing changed, the first {@link PROBLEMS_SHOWN}, what to do. */
  toError(file: string): RosterError {
    const more = this.total - this.shown.length;
    const noun = this.total === 1 ? "problem" : "problems";
    return new RosterError(
      `${file}: ${this.total} ${noun}, nothing was imported (the previous roster is unchanged): ${this.shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}. Fix the file and import it again`,
    );
  }
}
