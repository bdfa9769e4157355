/**
 * Waits until the requests queued so far have been written to their sockets, then until the
 * answers that were ready before this one have had their turn.
 *
 * Why the writes first: undici writes a request on a kept-alive socket from an Immediate (the
 * check phase), after the event loop has run everything that became ready in the poll phase. When
 * a burst of answers arrives together, every answer's processing (JSON parsing, storing records)
 * would otherwise run before any of the requests their freed slots let through goes out, and the
 * whole burst's next round trip starts late. Processing an answer from an Immediate queued inside
 * an Immediate puts it after those writes.
 *
 * Why one answer a turn: the answers of a burst were then all processed in one check phase. At
 * the start of a run that is a hundred list pages of 500 records (about 100 ms of parsing,
 * converting and fanning out), during which no socket is read: answers wait unread, the slots
 * they would free stay taken, and a portal whose queue holds 40 ms of work runs dry. Released one
 * per turn of the event loop, each answer's processing is followed by a poll that reads what has
 * arrived and sends what it lets through.
 *
 * Fake timers that replace setImmediate (vitest's do by default) stop every request here: a test
 * driving the client under them must leave setImmediate real (`toFake` without it).
 */

/** Answers read and waiting for their turn, oldest first, from `head`. */
let waiting: (() => void)[] = [];
let head = 0;
let releasing = false;

export function afterQueuedWrites(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(() => {
      waiting.push(resolve);
      if (!releasing) {
        releasing = true;
        setImmediate(releaseOne);
      }
    });
  });
}

/** Lets the oldest waiting answer go on; the next one goes at the next turn's check phase. */
function releaseOne(): void {
  const next = waiting[head++];
  if (head >= waiting.length) {
    waiting = [];
    head = 0;
    releasing = false;
  } else {
    // An Immediate queued while Immediates run waits for the next turn, after its poll phase.
    setImmediate(releaseOne);
  }
  next?.();
}
