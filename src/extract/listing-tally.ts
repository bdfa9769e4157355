/**
 * What one listing of a resource tells the run besides its records: the requests that yielded
 * no page (page one asked again to see the order held, a key range that answered nothing new),
 * which `_run_resources` counts as sent, and the records its re-read proved removed from the
 * portal while it was paged, which must never be stored. One per listing: a resource's child
 * listings run side by side.
 */
import { keyOf } from "../api/key-ranges.js";
import type { ListSummary } from "../api/paginate.js";
import type { Logger } from "../log/logger.js";
import type { ExtractedName } from "../resources/registry.js";
import type { RecordSink } from "./sink.js";

export class ListingTally {
  private pages = 0;
  private vanished: readonly number[] = [];

  constructor(
    private readonly resource: ExtractedName,
    private readonly env: {
      logger: Logger;
      /** Adds requests sent for the listing that yielded no page. */
      countRequests(extra: number): void;
    },
  ) {}

  /** One page yielded. */
  page(): void {
    this.pages += 1;
  }

  /** The listing's summary, given at its end (an arrow: passed on as a callback). */
  readonly onSummary = (summary: ListSummary): void => {
    this.env.countRequests(Math.max(0, summary.requests - this.pages));
    this.vanished = summary.vanished;
  };

  /** Unstages from `sink` what the list's re-read proved removed, so the tables never hold it. */
  async dropVanished(sink: RecordSink): Promise<void> {
    if (this.vanished.length === 0) return;
    this.logVanished();
    await sink.drop(this.vanished);
  }

  /** `records`, not staged yet, without those the listing's re-read proved removed. */
  withoutVanished(records: readonly unknown[], key: string): readonly unknown[] {
    if (this.vanished.length === 0) return records;
    this.logVanished();
    const gone = new Set(this.vanished);
    return records.filter((record) => {
      const k = keyOf(record, key);
      return k === undefined || !gone.has(k);
    });
  }

  private logVanished(): void {
    const { resource } = this;
    const gone = this.vanished.length;
    this.env.logger.info(
      `${resource}: ${gone} records listed while the list moved were gone when it was read again; not stored`,
      { resource, gone },
    );
  }
}
