/**
 * Gives up on a PostgreSQL server that stops answering while a publish waits on it. pg has no
 * such limit: a server that hangs (a stopped process, a full disk it waits on), a network lost
 * without a reset, or a lock another session holds kept `publish --postgres` waiting for ever,
 * and a scheduled publish with it. TCP keepalive alone notices only a vanished peer, and only
 * after minutes to hours; a hung server's kernel still answers the probes.
 *
 * The watch counts time only while the publish waits on the server: bytes it wrote that the
 * server has not taken (a COPY whose server stopped reading fills the socket's buffers), or a
 * message sent since the server last said anything (a query awaiting its answer). Time this side
 * spends between statements (reading DuckDB) is not the server's. Any byte read or written
 * starts the count again, so a large COPY may run as long as it keeps moving. A statement the
 * server works on longer than the limit without a word (a lock a reader holds included) is given
 * up too: that is what the limit is for, and the message says how to raise it. Waiting for another
 * publish of the same schema to finish is not counted (see {@link StallWatch.excuse}).
 */
import type { Socket } from "node:net";

/** Seconds `publish --postgres` waits on a silent server when `--postgres-timeout` is not given. */
export const DEFAULT_POSTGRES_TIMEOUT_S = 600;

/** The server neither answered nor took data for `seconds` while the publish waited on it. */
export class PgStallError extends Error {
  override name = "PgStallError";
  constructor(readonly seconds: number) {
    super(`PostgreSQL has neither answered nor taken data for ${seconds} s`);
  }
}

/** A watch on one connection; see {@link watchStalls}. */
export interface StallWatch {
  /**
   * Runs `wait` uncounted: a publish waiting its turn behind another publish of the schema (the
   * advisory lock) waits as long as that one takes, and that one has a watch of its own.
   */
  excuse<T>(wait: Promise<T>): Promise<T>;
  stop(): void;
}

/** The watch of `--postgres-timeout 0`, and of a publish not yet connected. */
export const NO_WATCH: StallWatch = { excuse: (wait) => wait, stop: () => undefined };

/**
 * Watches `socket` (a connected pg client's stream) and destroys it with a {@link PgStallError}
 * once the publish has waited `timeoutMs` on the server without any byte moving; 0 watches
 * nothing.
 */
export function watchStalls(socket: Socket, timeoutMs: number): StallWatch {
  if (timeoutMs <= 0) return NO_WATCH;
  // bytesWritten counts what is still buffered too; what left the buffer is what the kernel took.
  const sent = () => socket.bytesWritten - socket.writableLength;
  let sentAtLastRead = sent();
  const onData = () => {
    sentAtLastRead = sent();
  };
  socket.on("data", onData);
  let excused = 0;
  let moved = { read: socket.bytesRead, sent: sent(), at: Date.now() };
  const tick = () => {
    const now = { read: socket.bytesRead, sent: sent(), at: Date.now() };
    if (excused > 0 || now.read !== moved.read || now.sent !== moved.sent) {
      moved = now;
      return;
    }
    const waiting = socket.writableLength > 0 || now.sent > sentAtLastRead;
    if (!waiting) moved = now;
    else if (now.at - moved.at >= timeoutMs) socket.destroy(new PgStallError(timeoutMs / 1000));
  };
  // A tenth of the limit: given up at most 10 % late, without a timer per byte.
  const timer = setInterval(tick, Math.max(50, Math.min(1000, timeoutMs / 10)));
  timer.unref();
  return {
    async excuse(wait) {
      excused += 1;
      try {
        return await wait;
      } finally {
        excused -= 1;
      }
    },
    stop() {
      clearInterval(timer);
      socket.off("data", onData);
    },
  };
}
