/**
 * Whether a portal caps its pages: the interface does not say how many records a page may hold,
 * and a portal that holds fewer than asked silently is followed at its own size.
 *
 * Page one holding fewer records than asked while `total` counts more has two readings: the
 * portal caps `limit`, or its `total` counts records its list never shows (deleted or hidden
 * ones it still counts). Page one alone cannot tell them apart, so the list is walked at page
 * one's size either way, and a cap is concluded only once a later page holds records beyond
 * page one's; a list whose later pages hold none is said to show fewer records than it counts.
 */
import type { Logger } from "../log/logger.js";

export class PageCap {
  /** Page one's size when it held fewer records than asked while `total` counted more. */
  #short: { held: number; asked: number; total: number } | undefined;
  #cap: number | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly label: string,
  ) {}

  /** The cap the later pages showed, if any. */
  get cap(): number | undefined {
    return this.#cap;
  }

  /** Page one's answer: answers the page size to walk on with. */
  first(held: number, asked: number, total: number): number {
    if (held === 0 || held >= Math.min(asked, total)) return asked;
    this.#short = { held, asked, total };
    return held;
  }

  /** A later page of the walk held `beyond` records past the one it shares with the page before. */
  later(beyond: number): void {
    const short = this.#short;
    if (short === undefined || this.#cap !== undefined || beyond === 0) return;
    // Records after page one's: page one held fewer than asked while more were there.
    this.#cap = short.held;
    this.logger.info(`${this.label}: the portal returns at most ${short.held} records per page`, {
      asked: short.asked,
    });
  }

  /** The walk is over: a short page one that no later page explained is said as it is. */
  done(): void {
    const short = this.#short;
    if (short === undefined || this.#cap !== undefined) return;
    const { held, asked, total } = short;
    this.logger.info(
      `${this.label}: page one held ${held} records of the ${total} its total counts (${asked} asked for), and no page after it held more: the list shows fewer records than its total counts`,
      { held, asked, total },
    );
  }
}
