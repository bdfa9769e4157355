/**
 * The `--rate` side of the limiter: when each request may start.
 *
 * Evenly spaced start slots (one every 1000/rate ms) rather than a bursting token bucket: a
 * portal that states no rate limit is best treated gently and evenly.
 */
import { sleep } from "./abort.js";
import { SecondWindow } from "./second-window.js";

/** How late past its slot a start may come and still go at once (see waitForSlot). */
const HELD_UP_MS = 5;

/**
 * Waits for a start slot of `rate` a second (at once without a rate): evenly spaced slots, and
 * no second holding more starts than the rate.
 */
export function rateSlots(rateAsked: number | undefined): (signal?: AbortSignal) => Promise<void> {
  const rate = rateAsked !== undefined && rateAsked > 0 ? rateAsked : undefined;
  const spacingMs = rate === undefined ? 0 : 1000 / rate;
  // A timer is often a millisecond or two late; later than this, the process was held up.
  const heldUpAfterMs = Math.max(spacingMs, HELD_UP_MS);
  let nextSlot = 0;
  const lastSecond = new SecondWindow(rate ?? 0);

  /** Waits for the next start slot, and for the second before it to hold less than the rate. */
  async function waitForSlot(signal?: AbortSignal): Promise<void> {
    if (spacingMs === 0) return;
    await reachSlot(signal);
    await lastSecond.admit(signal);
  }

  /**
   * Reserves the next start slot and waits for it. A slot reached long after it came (the event
   * loop was held up: a long synchronous step, a busy machine) is given up for the next free one:
   * the slots reserved behind it passed meanwhile too, and starting every task that waited on
   * them at once would put a stall's worth of requests on top of the next second's rate.
   */
  async function reachSlot(signal: AbortSignal | undefined): Promise<void> {
    const now = performance.now();
    const slot = Math.max(now, nextSlot);
    nextSlot = slot + spacingMs;
    await sleep(slot - now, signal);
    const woke = performance.now();
    if (woke - slot <= heldUpAfterMs) return;
    // Once only: a loop still held up at the new slot must not keep a task from ever starting.
    const again = Math.max(woke, nextSlot);
    nextSlot = again + spacingMs;
    if (again > woke) await sleep(again - woke, signal);
  }

  return waitForSlot;
}
