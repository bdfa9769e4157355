/**
 * Reading a secret from a pipe (`--api-key-file <(pass show lms)`, or a named pipe made with
 * mkfifo) without blocking the process. fs.readFile opens and reads a pipe in the thread pool,
 * where nothing can stop it: a named pipe nothing writes to held the command forever, deaf to
 * SIGTERM, so a cron wrapper's `timeout` could not end it. Opened without blocking and read as
 * a stream on the event loop, the wait ends when the writer closes its end, when the command's
 * stop signal fires (Ctrl-C, SIGTERM), and says so in the log when it lasts.
 */
import { constants, open as openWithCallback } from "node:fs";
import { Socket } from "node:net";
import { LmsExportError } from "../errors/lms-export-error.js";
import type { Logger } from "../log/logger.js";

/** How long a pipe may stay silent before the wait is logged. */
const QUIET_MS = 5_000;

/** The text written into the pipe at `path` until its writer closed it, at most `max` bytes. */
export async function readPipe(
  path: string,
  options: { max: number; what: string; logger?: Logger | undefined; signal?: AbortSignal },
): Promise<string> {
  const { signal } = options;
  if (signal?.aborted) throw new LmsExportError("interrupted", "interrupted");
  const fd = await openDescriptor(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const socket = new Socket({ fd, readable: true, writable: false });
  let quiet = quietWarning(options, `the pipe ${path} has not been written to yet`);
  const stop = () => socket.destroy(new LmsExportError("interrupted", "interrupted"));
  signal?.addEventListener("abort", stop, { once: true });
  // A stop that came while the pipe was being opened was heard by no one: take it now.
  if (signal?.aborted) stop();
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of socket) {
      clearTimeout(quiet);
      // The secret is whole only once the writer closes its end: one that keeps it open (a
      // script that goes on after writing) holds the command as surely as one that never wrote.
      quiet = quietWarning(
        options,
        `the pipe ${path} was written to but its writer has not closed it yet`,
      );
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      // A writer that never stops is not a secret: stop reading rather than fill memory.
      if (size > options.max) break;
    }
    return Buffer.concat(chunks).toString("utf8");
  } finally {
    clearTimeout(quiet);
    signal?.removeEventListener("abort", stop);
    socket.destroy();
  }
}

/**
 * A bare descriptor, owned by the socket that reads it and closed when the socket is destroyed.
 * Not a FileHandle: one left to the garbage collector closes its descriptor again, after the
 * socket has, and Node ends the process on the EBADF that gives ("Closing file descriptor N on
 * garbage collection failed"); a stopped command then died with exit 1 instead of 143.
 */
function openDescriptor(path: string, flags: number): Promise<number> {
  return new Promise((resolve, reject) => {
    openWithCallback(path, flags, (error, fd) => (error ? reject(error) : resolve(fd)));
  });
}

/** A warning logged once the pipe has stayed quiet for QUIET_MS, saying what is awaited. */
function quietWarning(
  options: { what: string; logger?: Logger | undefined },
  state: string,
): NodeJS.Timeout {
  const timer = setTimeout(() => {
    options.logger?.warn(`waiting for the ${options.what}: ${state}`);
  }, QUIET_MS);
  timer.unref();
  return timer;
}
