/**
 * Writing a log line so that a failure to write it cannot stop the work. The log is what a
 * command says about its work, not the work: a stderr on a full disk (ENOSPC), a closed pipe
 * (EPIPE) or a failing device (EIO) must not fail an extract that has everything it needs, nor be
 * mistaken for a failure of the database's disk by the code that names where space ran out. A
 * line that cannot be written is dropped and counted, and main() says how many once at the end
 * (lostLogLines()).
 *
 * The process's own stdout and stderr are written synchronously on their file descriptors, so no
 * line is lost when the CLI exits right after logging; any other stream (a test's, one portal's
 * under --all-portals) gets one write() call per line.
 */
import { writeSync } from "node:fs";
import type { Writable } from "node:stream";

/** Lines dropped so far in this process, and why the last one was. */
export interface LostLogLines {
  readonly count: number;
  /** The error code (ENOSPC, EPIPE, EIO) or message of the last failure. */
  readonly reason: string | undefined;
}

// Per process, like the descriptors the lines are written to.
let lost = 0;
let lastReason: string | undefined;

/** Writes `line` to `stream`; never throws. */
export function writeLogLine(stream: Writable, line: string): void {
  try {
    const fd = stream === process.stderr ? 2 : stream === process.stdout ? 1 : undefined;
    if (fd === undefined) stream.write(line);
    else writeWhole(fd, Buffer.from(line));
  } catch (error) {
    noteLostLogLine(error);
  }
}

/** Counts a line that `error` kept from the log (also one a stream reported later). */
export function noteLostLogLine(error: unknown): void {
  lost += 1;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  lastReason = typeof code === "string" ? code : String(message);
}

/** What was dropped so far. */
export function lostLogLines(): LostLogLines {
  return { count: lost, reason: lastReason };
}

/** Waits for a reader that is behind: a blocking descriptor would wait the same. */
const waitCell = new Int32Array(new SharedArrayBuffer(4));

function writeWhole(fd: number, bytes: Buffer): void {
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // A non-blocking descriptor (a pipe its parent made so) whose reader has not caught up.
      if (code !== "EAGAIN" && code !== "EBUSY") throw error;
      Atomics.wait(waitCell, 0, 0, 10);
    }
  }
}
