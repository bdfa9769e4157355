/**
 * Waits until the requests queued so far have been written to their sockets.
 *
 * Why: undici writes a request on a kept-alive socket from an Immediate (the check phase), after
 * the event loop has run everything that became ready in the poll phase. When a burst of answers
 * arrives together, every answer's processing (JSON parsing, storing records) would otherwise run
 * before any of the requests their freed slots let through goes out, and the whole burst's next
 * round trip starts late. Processing an answer from an Immediate queued inside an Immediate puts it
 * after those writes: the next requests are on the wire while the answers are handled.
 *
 * Fake timers that replace setImmediate (vitest's do by default) stop every request here: a test
 * driving the client under them must leave setImmediate real (`toFake` without it).
 */
export function afterQueuedWrites(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(() => setImmediate(resolve));
  });
}
