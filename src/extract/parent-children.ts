/**
 * One parent's children (a user's takes) on their way to the staging sink. They are held until
 * the parent's listing ends and then staged in one write with the parent's done mark, so that no
 * commit stages part of a parent: a resumed run lists again whole each parent not marked done,
 * and part of one staged by the stopped attempt would be merged with that listing, though the
 * portal may have removed some of it since. Telling such rows apart afterwards rests on each
 * child naming the parent it was listed for, which the interface does not promise.
 *
 * Memory stays bounded all the same: the parents listed side by side hold at most HOLD_ROWS
 * children between them (one HoldBudget per run). A parent whose page would pass that (a test
 * account with a hundred thousand takes, or many users with thousands each) has its children
 * staged page by page, under a `started` mark committed with the first of them, and only such a
 * parent's rows are told apart by that field when a resumed run discards what it had not finished
 * (unfinished-listings.ts).
 */
import type { CheckpointKind } from "../load/checkpoint.js";
import type { Logger } from "../log/logger.js";
import type { ListingTally } from "./listing-tally.js";
import type { RecordSink } from "./sink.js";

/** Children held at once by a resource's listings: about ten megabytes of parsed records. */
export const HOLD_ROWS = 10_000;

/** What the listings in flight may still hold. */
export class HoldBudget {
  private left = HOLD_ROWS;
  private told = false;

  /** True the first time only: a run says once that it stages children as they come. */
  firstOverflow(): boolean {
    if (this.told) return false;
    this.told = true;
    return true;
  }

  /** Takes `rows` from the budget; false (taking nothing) when fewer are left. */
  reserve(rows: number): boolean {
    if (rows > this.left) return false;
    this.left -= rows;
    return true;
  }

  release(rows: number): void {
    this.left += rows;
  }
}

export class ParentChildren {
  private held: unknown[] = [];
  private streaming = false;

  constructor(
    private readonly sink: RecordSink,
    private readonly budget: HoldBudget,
    private readonly tally: ListingTally,
    private readonly parent: {
      id: number;
      done: CheckpointKind;
      primaryKey: string;
      /** Names the parent's children in the log, e.g. `take: the records listed for take_user_id 7`. */
      label: string;
    },
    private readonly logger: Logger,
  ) {}

  /** One page of the parent's children. */
  async add(records: readonly unknown[]): Promise<void> {
    if (this.streaming) return this.sink.add(records);
    if (this.budget.reserve(records.length)) {
      for (const record of records) this.held.push(record);
      return;
    }
    this.streaming = true;
    if (this.budget.firstOverflow()) {
      this.logger.info(
        `${this.parent.label} are staged as they come, as holding them until the listing ends would pass ${HOLD_ROWS} records held at once (said once a run; so are others' past it)`,
      );
    }
    this.budget.release(this.held.length);
    const held = this.held;
    this.held = [];
    for (const record of records) held.push(record);
    // The mark goes into the same write as the first rows: no commit holds one without the other.
    await this.sink.add(held, { kind: "started", keys: [String(this.parent.id)] });
  }

  /** The listing ended: what is left staged, with the parent marked done. */
  async end(): Promise<void> {
    const done = { kind: this.parent.done, keys: [String(this.parent.id)] };
    if (this.streaming) {
      await this.tally.dropVanished(this.sink);
      await this.sink.add([], done);
      return;
    }
    const held = this.held;
    this.held = [];
    this.budget.release(held.length);
    await this.sink.add(this.tally.withoutVanished(held, this.parent.primaryKey), done);
  }

  /** The listing failed or was stopped: what it held is given back, never staged. */
  abandon(): void {
    this.budget.release(this.held.length);
    this.held = [];
  }
}
