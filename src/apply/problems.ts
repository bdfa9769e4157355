/**
 * Everything wrong with a change file, gathered over the whole file so that one message lists the
 * first {@link PROBLEMS_SHOWN} with their lines: nothing is sent until the file is clean.
 */
export const PROBLEMS_SHOWN = 20;

/** A change file that cannot be applied as it is (exit code 2, nothing sent). */
export class ChangeFileError extends Error {
  override readonly name = "ChangeFileError";
}

export class ChangeProblems {
  private readonly shown: string[] = [];
  private total = 0;

  get count(): number {
    return this.total;
  }

  /** `where` is e.g. "line 12", "row 4" or "header". */
  add(where: string, message: string): void {
    this.total++;
    if (this.shown.length < PROBLEMS_SHOWN) this.shown.push(`${where}: ${message}`);
  }

  toError(file: string): ChangeFileError {
    const more = this.total - this.shown.length;
    const noun = this.total === 1 ? "problem" : "problems";
    return new ChangeFileError(
      `${file}: ${this.total} ${noun}, nothing was sent: ${this.shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}. Fix the file and run apply again`,
    );
  }
}
