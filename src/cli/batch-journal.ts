/**
 * The batch record kept up to date while an `--all-portals` batch runs: written when the batch
 * starts, then again as each portal ends, one write after the other (portals running at once end
 * at once). A record that cannot be written does not stop the batch, which extracts as it would
 * without one; it is said once, with what it costs.
 */

import { rm } from "node:fs/promises";
import { errnoCode } from "../config/errno-code.js";
import { errorText } from "../errors/error-text.js";
import type { Logger } from "../log/logger.js";
import { type BatchPortal, type BatchRecord, writeBatchRecord } from "./batch-record.js";

export class BatchJournal {
  private writes: Promise<void> = Promise.resolve();
  private written = 0;
  private warned = false;
  /** Whether the latest write is on disk: the batch can then be resumed from it. */
  saved = false;

  /**
   * `newBatch`: the record starts a batch; the record of an earlier one must then not outlive a
   * first write that fails. A resumed batch's record stays as it was.
   */
  constructor(
    readonly path: string,
    private record: BatchRecord,
    private readonly logger: Logger,
    private readonly newBatch: boolean,
  ) {}

  /** Writes the record as it is now, after the writes before it; never throws. */
  save(): Promise<void> {
    const record = this.record;
    this.writes = this.writes.then(async () => {
      try {
        await writeBatchRecord(this.path, record);
        this.saved = true;
      } catch (error) {
        await this.failed(error);
      }
      this.written += 1;
    });
    return this.writes;
  }

  /** Records how `name` ended and writes the record. */
  ended(name: string, portal: BatchPortal): Promise<void> {
    this.record = { ...this.record, portals: { ...this.record.portals, [name]: portal } };
    return this.save();
  }

  private async failed(error: unknown): Promise<void> {
    this.saved = false;
    const first = this.written === 0 && this.newBatch;
    // The record of an earlier batch must not stand for this one: --resume would skip the
    // portals that batch finished, which this one was to extract again.
    if (first) await rm(this.path, { force: true }).catch(() => undefined);
    if (this.warned) return;
    this.warned = true;
    const why = errnoCode(error) ?? errorText(error);
    const cost = first
      ? "`extract --all-portals --resume` cannot continue this batch: it would extract every portal again (resuming the interrupted ones)"
      : "`extract --all-portals --resume` may extract again portals that finish from now on";
    this.logger.warn(`could not write the batch record ${this.path} (${why}): ${cost}`);
  }
}
