/**
 * The journal of row outcomes: a file beside the database (`<database>.apply-journal`, JSON
 * lines) to which each outcome is written before its row counts as done, so a row the portal
 * confirmed is on record even when the process is killed the next instant (what a process has
 * written is the kernel's, whatever becomes of the process). The database takes the same outcomes
 * in batches (outcome-recorder.ts) and, after a kill, from the journal at the next start
 * (fold-journal.ts).
 *
 * Why a journal and not a commit per row: a DuckDB transaction per row (the answered record and
 * its outcome) took 7 ms, one after the other on one connection, where an append takes a few
 * microseconds, and appends that arrive together share one write.
 *
 * Why no fdatasync per write: it guards against the machine losing power, not the process being
 * killed, and cost 7-10 % of the whole apply (1,000 edits at 20 ms, 16 at once: 1.57-1.68 s with
 * it, 1.49-1.56 s without, 2026-11-26). What a power loss could take is the last outcomes, whose
 * rows would be sent again: an edit sets the same values again and a create is checked first
 * (send-row.ts), so nothing is made twice. The journal's first line is flushed, so a disk that
 * takes nothing is found before anything is sent.
 */
import { type FileHandle, open, readFile, stat } from "node:fs/promises";
import { errnoCode } from "../config/errno-code.js";
import type { OutcomeRow } from "./changes-table.js";
import { type ApplyOp, isApplyOp } from "./ops.js";

/** One row's outcome as the journal keeps it. */
export interface JournalEntry extends OutcomeRow {
  /** The change set, its file and operation. */
  readonly set: string;
  readonly file: string;
  readonly op: ApplyOp;
  /** Whether `after` is the record the portal answered (to be stored in the local table). */
  readonly answered: boolean;
}

export function journalPath(databasePath: string): string {
  return `${databasePath}.apply-journal`;
}

interface Waiting {
  readonly text: string;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

export class OutcomeJournal {
  private waiting: Waiting[] = [];
  private writing = false;
  private failure: unknown;

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  /**
   * Opens (or creates) the journal and writes a first line to the disk, so that a disk that
   * takes nothing more is found before anything is sent.
   */
  static async open(path: string): Promise<OutcomeJournal> {
    const handle = await open(path, "a", 0o600);
    const journal = new OutcomeJournal(path, handle);
    try {
      await journal.write(`${JSON.stringify({ opened: new Date().toISOString() })}\n`);
      await handle.datasync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    return journal;
  }

  /** Resolves once `entry` is written; after one failure every append fails with it. */
  append(entry: JournalEntry): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ text: `${JSON.stringify(entry)}\n`, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  private async write(text: string): Promise<void> {
    await this.handle.appendFile(text);
  }

  /** Writes what waits, all of it in one write, until nothing waits. */
  private async drain(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      try {
        await this.write(batch.map((w) => w.text).join(""));
        for (const w of batch) w.resolve();
      } catch (error) {
        this.failure = error;
        for (const w of [...batch, ...this.waiting]) w.reject(error);
        this.waiting = [];
      }
    }
    this.writing = false;
  }
}

const isEntry = (value: unknown): value is JournalEntry =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { set?: unknown }).set === "string" &&
  typeof (value as { line?: unknown }).line === "number" &&
  isApplyOp(String((value as { op?: unknown }).op));

/**
 * The entries of the journal at `path`; undefined when there is nothing to take in: no journal,
 * an empty one, or something that is not a file (it is left for the append to fail on). A line
 * that does not parse is the one being written when the process was killed: its row was not yet
 * on record, and is skipped.
 */
export async function readJournal(path: string): Promise<JournalEntry[] | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size === 0) return undefined;
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    throw error;
  }
  const entries: JournalEntry[] = [];
  for (const line of (await readFile(path, "utf8")).split("\n")) {
    try {
      const value: unknown = JSON.parse(line);
      if (isEntry(value)) entries.push(value);
    } catch {
      // the line cut short by a kill
    }
  }
  return entries;
}
