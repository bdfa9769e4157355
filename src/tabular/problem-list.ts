/**
 * The problems of one file, gathered while it is read so that one error can list the first few
 * with their places: fixing a file one error at a time is a slow loop.
 */
export class ProblemList {
  private readonly shown: string[] = [];
  private total = 0;

  /** `limit`: how many problems a message lists; the rest are counted. */
  constructor(readonly limit: number) {}

  get count(): number {
    return this.total;
  }

  /** `where` is e.g. "line 12", "row 4" or "header". */
  add(where: string, message: string): void {
    this.total++;
    if (this.shown.length < this.limit) this.shown.push(`${where}: ${message}`);
  }

  /** "3 problems". */
  counted(): string {
    return `${this.total} ${this.total === 1 ? "problem" : "problems"}`;
  }

  /** The listed problems, and how many more there are. */
  listed(): string {
    const more = this.total - this.shown.length;
    return `${this.shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
  }
}
